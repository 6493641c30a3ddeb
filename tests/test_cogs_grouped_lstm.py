"""compsem.cogs.seq2seq.grouped_lstm: K LSTM encoder-decoders with grouped weights must compute
what each member's LSTMSeq2Seq computes (packed encoder, input feeding, attention), outputs and
gradients, for the uni- and the bidirectional encoder."""

from __future__ import annotations

import pytest
import torch

from compsem.cogs.seq2seq.grouped_lstm import GroupedLSTM
from compsem.cogs.seq2seq.lstm import LSTMSeq2Seq
from compsem.cogs.seq2seq.vocab import PAD_ID


def batch(k: int, rows: int, generator: torch.Generator):
    """Members' batches of one padded shape, each row its own length (one row unpadded)."""
    src = torch.randint(4, 20, (k, rows, 7), generator=generator)
    tgt_in = torch.randint(4, 30, (k, rows, 6), generator=generator)
    tgt_out = torch.randint(4, 30, (k, rows, 6), generator=generator)
    src_len = torch.randint(1, 8, (k, rows), generator=generator)
    src_len[:, 0] = 7
    tgt_len = torch.randint(1, 7, (k, rows), generator=generator)
    src[torch.arange(7) >= src_len.unsqueeze(-1)] = PAD_ID
    tgt_in[torch.arange(6) >= tgt_len.unsqueeze(-1)] = PAD_ID
    tgt_out[torch.arange(6) >= tgt_len.unsqueeze(-1)] = PAD_ID
    return src, src_len, tgt_in, tgt_out


@pytest.mark.parametrize("bidirectional", [False, True])
def test_a_grouped_member_computes_what_its_model_computes(bidirectional):
    generator = torch.Generator().manual_seed(0)
    models = []
    for seed in (1, 2, 3):
        torch.manual_seed(seed)
        models.append(LSTMSeq2Seq(20, 30, layers=2, hidden=8, embedding=6, dropout=0.0,
                                  bidirectional=bidirectional))
    group = GroupedLSTM(models)
    src, src_len, tgt_in, tgt_out = batch(3, 5, generator)
    together = group(src, src_len, tgt_in)
    keep = tgt_out != PAD_ID
    (together.gather(-1, tgt_out.unsqueeze(-1)).squeeze(-1) * keep).sum().backward()
    for k, model in enumerate(models):
        alone = model(src[k], src_len[k], tgt_in[k])
        assert torch.allclose(together[k][keep[k]], alone[keep[k]], atol=1e-5)
        (alone.gather(-1, tgt_out[k].unsqueeze(-1)).squeeze(-1) * keep[k]).sum().backward()
        for name, p in model.named_parameters():
            assert torch.allclose(group.params[name].grad[k], p.grad, atol=1e-5), name
        state = group.member_state(k)
        assert all(torch.equal(state[n], p) for n, p in model.state_dict().items())


def test_dropout_draws_differ_between_members_and_stop_in_eval_mode():
    torch.manual_seed(0)
    model = LSTMSeq2Seq(20, 30, layers=2, hidden=8, embedding=6, dropout=0.5)
    group = GroupedLSTM([model, model])  # the same weights twice
    src, src_len, tgt_in, _ = batch(2, 4, torch.Generator().manual_seed(1))
    src[1], tgt_in[1] = src[0], tgt_in[0]
    trained = group.train()(src, src_len, tgt_in)
    assert not torch.allclose(trained[0], trained[1])
    evaluated = group.train(False)(src, src_len, tgt_in)
    assert torch.allclose(evaluated[0], evaluated[1])
