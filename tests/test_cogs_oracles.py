"""Oracle tests of the COGS models against independent computations.

- Our Transformer (pre-norm layers as OpenNMT-py 1.1.1 builds them) against
  ``torch.nn.Transformer(norm_first=True)`` given the same weights: equal logits to 1e-5, under
  teacher forcing and step by step with the key/value cache.
- One decoder step of our LSTM (input feeding, global dot attention, Luong et al. 2015, Eqs. 5-7
  and Section 3.3) against the equations written out with plain tensor arithmetic, on a batch
  with source padding (a mask that let padding in would change the attention weights).
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from compsem.cogs.seq2seq.lstm import LSTMSeq2Seq
from compsem.cogs.seq2seq.transformer import TransformerSeq2Seq
from compsem.cogs.seq2seq.vocab import PAD_ID

pytestmark = pytest.mark.filterwarnings(
    "ignore:enable_nested_tensor:UserWarning", "ignore:The PyTorch API of nested tensors:UserWarning"
)

SRC_V, TGT_V = 13, 11


def _copy_attention(ours, theirs: nn.MultiheadAttention):
    with torch.no_grad():
        theirs.in_proj_weight.copy_(
            torch.cat([ours.query.weight, ours.key.weight, ours.value.weight])
        )
        theirs.in_proj_bias.copy_(torch.cat([ours.query.bias, ours.key.bias, ours.value.bias]))
        theirs.out_proj.weight.copy_(ours.out.weight)
        theirs.out_proj.bias.copy_(ours.out.bias)


def _copy_norm(ours: nn.LayerNorm, theirs: nn.LayerNorm):
    with torch.no_grad():
        theirs.weight.copy_(ours.weight)
        theirs.bias.copy_(ours.bias)


def _copy_feed_forward(ours, theirs):
    with torch.no_grad():
        theirs.linear1.weight.copy_(ours.w1.weight)
        theirs.linear1.bias.copy_(ours.w1.bias)
        theirs.linear2.weight.copy_(ours.w2.weight)
        theirs.linear2.bias.copy_(ours.w2.bias)


def _reference(model: TransformerSeq2Seq, d, heads, ff, layers) -> nn.Transformer:
    """``nn.Transformer(norm_first=True)`` holding ``model``'s weights."""
    ref = nn.Transformer(
        d_model=d, nhead=heads, num_encoder_layers=layers, num_decoder_layers=layers,
        dim_feedforward=ff, dropout=0.0, activation="relu", layer_norm_eps=1e-6,
        batch_first=True, norm_first=True,
    )
    for ours, theirs in zip(model.encoder, ref.encoder.layers, strict=True):
        _copy_attention(ours.attention, theirs.self_attn)
        _copy_norm(ours.norm, theirs.norm1)
        _copy_norm(ours.feed_forward.norm, theirs.norm2)
        _copy_feed_forward(ours.feed_forward, theirs)
    for ours, theirs in zip(model.decoder, ref.decoder.layers, strict=True):
        _copy_attention(ours.self_attention, theirs.self_attn)
        _copy_attention(ours.context_attention, theirs.multihead_attn)
        _copy_norm(ours.self_norm, theirs.norm1)
        _copy_norm(ours.context_norm, theirs.norm2)
        _copy_norm(ours.feed_forward.norm, theirs.norm3)
        _copy_feed_forward(ours.feed_forward, theirs)
    _copy_norm(model.encoder_norm, ref.encoder.norm)
    _copy_norm(model.decoder_norm, ref.decoder.norm)
    return ref.eval()


def _batch(seed=0, b=4, s=7, t=9):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(4, SRC_V, (b, s), generator=g)
    lengths = torch.tensor([s, s - 2, 3, 1][:b])
    for i, n in enumerate(lengths):
        src[i, n:] = PAD_ID
    tgt_in = torch.randint(4, TGT_V, (b, t), generator=g)
    return src, lengths, tgt_in


def _perturb_norms(model):
    """LayerNorm weights away from 1 and biases away from 0, so a norm wired to the wrong place
    changes the output."""
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.LayerNorm):
                module.weight.copy_(1 + 0.3 * torch.randn(module.weight.shape, generator=g))
                module.bias.copy_(0.3 * torch.randn(module.bias.shape, generator=g))


@pytest.mark.parametrize("layers,d,ff,heads", [(2, 32, 64, 4), (1, 16, 48, 2), (3, 24, 24, 3)])
def test_transformer_equals_torch_pre_norm_transformer(layers, d, ff, heads):
    torch.manual_seed(0)
    model = TransformerSeq2Seq(SRC_V, TGT_V, layers=layers, d_model=d, ff=ff, heads=heads,
                               dropout=0.0).eval()
    _perturb_norms(model)
    ref = _reference(model, d, heads, ff, layers)
    src, lengths, tgt_in = _batch()
    pad = src == PAD_ID
    with torch.no_grad():
        hidden = ref(
            model.src_embedding(src), model.tgt_embedding(tgt_in),
            tgt_mask=nn.Transformer.generate_square_subsequent_mask(tgt_in.shape[1]),
            src_key_padding_mask=pad, memory_key_padding_mask=pad, tgt_is_causal=True,
        )
        expected = model.generator(hidden)
        ours = model(src, lengths, tgt_in)
        ours_logits = model.generator(_decoder_hidden(model, src, tgt_in))
    assert torch.allclose(ours_logits, expected, atol=1e-5, rtol=0)
    assert torch.allclose(ours, torch.log_softmax(expected, -1), atol=1e-5, rtol=0)
    # step by step with the key/value cache: the same logits position by position
    with torch.no_grad():
        state = model.encode(src, lengths)
        for position in range(tgt_in.shape[1]):
            step, state = model.step(tgt_in[:, position], state, position)
            assert torch.allclose(
                step, torch.log_softmax(expected[:, position], -1), atol=1e-5, rtol=0
            )


def _decoder_hidden(model, src, tgt_in):
    """Our decoder's final hidden states (before the generator), under teacher forcing."""
    kv, mask = model._encode(src)
    x = model.tgt_embedding(tgt_in)
    for layer, memory_kv in zip(model.decoder, kv, strict=True):
        x = layer(x, memory_kv, mask)
    return model.decoder_norm(x)


def test_the_oracle_catches_a_post_norm_model():
    """The comparison can fail: a post-norm reference (norm_first=False) is not our model."""
    torch.manual_seed(0)
    model = TransformerSeq2Seq(SRC_V, TGT_V, layers=2, d_model=32, ff=64, heads=4,
                               dropout=0.0).eval()
    _perturb_norms(model)
    ref = _reference(model, 32, 4, 64, 2)
    post = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                          dim_feedforward=64, dropout=0.0, layer_norm_eps=1e-6,
                          batch_first=True, norm_first=False).eval()
    post.load_state_dict(ref.state_dict())
    src, lengths, tgt_in = _batch()
    pad = src == PAD_ID
    with torch.no_grad():
        hidden = post(model.src_embedding(src), model.tgt_embedding(tgt_in),
                      tgt_mask=nn.Transformer.generate_square_subsequent_mask(tgt_in.shape[1]),
                      src_key_padding_mask=pad, memory_key_padding_mask=pad)
        ours = model(src, lengths, tgt_in)
    assert not torch.allclose(ours, torch.log_softmax(model.generator(hidden), -1), atol=1e-3)


def _lstm_cell(cell: nn.LSTMCell, x, h, c):
    """i, f, g, o = W_ih x + b_ih + W_hh h + b_hh; c' = s(f) c + s(i) tanh(g); h' = s(o) tanh(c')."""
    gates = x @ cell.weight_ih.T + cell.bias_ih + h @ cell.weight_hh.T + cell.bias_hh
    i, f, g, o = gates.chunk(4, dim=1)
    c_new = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_new), c_new


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_attention_step_equals_the_equations(bidirectional):
    torch.manual_seed(0)
    model = LSTMSeq2Seq(SRC_V, TGT_V, layers=2, hidden=8, embedding=6, dropout=0.0,
                        bidirectional=bidirectional).eval()
    src, lengths, tgt_in = _batch()
    with torch.no_grad():
        state = model.encode(src, lengths)
        state["feed"] = torch.randn_like(state["feed"])  # as after an earlier step
        before = {k: v.clone() for k, v in state.items()}
        out = model._step(model.tgt_embedding(tgt_in[:, 0]), state)

        x = torch.cat([model.tgt_embedding(tgt_in[:, 0]), before["feed"]], dim=1)
        hs, cs = [], []
        for i, cell in enumerate(model.cells):
            h, c = _lstm_cell(cell, x, before["h"][:, i], before["c"][:, i])
            hs.append(h)
            cs.append(c)
            x = h
        expected = []
        for b in range(src.shape[0]):
            memory = before["memory"][b, : lengths[b]]  # the real source positions only
            scores = torch.stack([memory[s] @ x[b] for s in range(len(memory))])  # h_s . h_t
            weights = torch.exp(scores - scores.max())
            weights = weights / weights.sum()
            context = (weights[:, None] * memory).sum(0)
            expected.append(torch.tanh(model.attention_out.weight @ torch.cat([context, x[b]])))
        expected = torch.stack(expected)
    assert torch.allclose(out, expected, atol=1e-6)
    assert torch.allclose(state["feed"], expected, atol=1e-6)  # input feeding carries h~_t
    assert torch.allclose(state["h"], torch.stack(hs, 1), atol=1e-6)
    assert torch.allclose(state["c"], torch.stack(cs, 1), atol=1e-6)


def test_lstm_embedding_dropout_is_switchable():
    """``embedding_dropout`` 0 (OpenNMT-py 1.1.1: no dropout after the LSTMs' embeddings) leaves
    the embeddings untouched in training mode; the default follows the text (0.1)."""
    torch.manual_seed(0)
    text = LSTMSeq2Seq(SRC_V, TGT_V, layers=2, hidden=8, embedding=6, dropout=0.5).train()
    opennmt = LSTMSeq2Seq(SRC_V, TGT_V, layers=2, hidden=8, embedding=6, dropout=0.5,
                          embedding_dropout=0.0).train()
    ids = torch.randint(4, TGT_V, (50, 5))
    assert torch.equal(opennmt.embed_target(ids), opennmt.tgt_embedding(ids))
    assert not torch.equal(text.embed_target(ids), text.tgt_embedding(ids))
    assert text.embedding_dropout.p == 0.5 and opennmt.embedding_dropout.p == 0.0


def test_the_grid_lstms_follow_the_code_and_the_texts_dropout_keeps_its_hashes():
    """One embedding dropout for every paper LSTM (0, as OpenNMT-py 1.1.1 ran the scripts); the
    text's (None: the model's dropout) is a separate configuration whose hashes are those of the
    committed LSTM runs trained before the choice (lstm seed 1, bilstm seed 2)."""
    from compsem.cogs.seq2seq import config

    for model in ("lstm", "bilstm"):
        code = config.paper_config(model)
        assert code["architecture"]["embedding_dropout"] == 0.0
        assert config.build_model(code, SRC_V, TGT_V).embedding_dropout.p == 0.0
        text = config.paper_config(model, lstm_embedding_dropout=None)
        assert "embedding_dropout" not in text["architecture"]
        assert config.build_model(text, SRC_V, TGT_V).embedding_dropout.p == 0.1
        assert config.config_hash(code) != config.config_hash(text)
    assert config.config_hash(config.paper_config("lstm", 1, 1, None)) == "b2952f6acc06"
    assert config.config_hash(config.paper_config("bilstm", 2, 1, None)) == "b652769ef0be"
    assert "embedding_dropout" not in config.paper_config("transformer")["architecture"]
    with pytest.raises(ValueError, match="embedding_dropout"):
        config.make_config("transformer", architecture={"embedding_dropout": 0.0})
