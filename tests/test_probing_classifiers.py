"""compsem.probing.classifiers, features, evaluate and geometry on toy sets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem.probing import classifiers as C
from compsem.probing import evaluate, features, geometry, grammars, tasks2018


def _xor(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2)).astype(np.float32)
    return X, ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)


def test_logreg_cv_on_a_separable_toy_set():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    result = C.logreg_cv(X[:200], y[:200], X[200:], y[200:])
    assert result.accuracy >= 0.97
    assert result.C in C.PAPER_CS
    assert result.predictions.shape == (100,)


def test_logreg_cannot_learn_xor_but_the_mlp_can():
    X, y = _xor(600, 1)
    linear = C.logreg_cv(X[:400], y[:400], X[400:], y[400:])
    mlp = C.mlp_probe(
        X[:400],
        np.arange(400),
        np.zeros((400, 0)),
        y[:400],
        X[400:],
        np.arange(200),
        np.zeros((200, 0)),
        y[400:],
        hidden=16,
        max_epochs=400,
    )
    assert linear.accuracy < 0.7
    assert mlp.accuracy > 0.9


def test_mlp_conditions_on_the_probe():
    """Label = sign of the sentence coordinate named by the probe: needs the interaction."""
    rng = np.random.default_rng(2)
    S = rng.normal(size=(800, 4)).astype(np.float32)
    rows = np.repeat(np.arange(800), 2)
    probe = np.tile([0, 1], 800)
    P = np.eye(2, dtype=np.float32)[probe]
    y = (S[rows, probe] > 0).astype(int)
    train = rows < 600
    r = C.mlp_probe(
        S,
        rows[train],
        P[train],
        y[train],
        S,
        rows[~train],
        P[~train],
        y[~train],
        hidden=32,
        seed=0,
        max_epochs=200,
    )
    assert r.accuracy > 0.9
    again = C.mlp_probe(
        S,
        rows[train],
        P[train],
        y[train],
        S,
        rows[~train],
        P[~train],
        y[~train],
        hidden=32,
        seed=0,
        max_epochs=200,
    )
    assert np.array_equal(r.predictions, again.predictions)  # deterministic in its seed


def test_classifier_input_errors():
    with pytest.raises(ValueError, match="single class"):
        C.logreg_cv(np.zeros((10, 2)), np.zeros(10), np.zeros((4, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="same number of columns"):
        C.logreg_cv(np.zeros((10, 2)), [0, 1] * 5, np.zeros((4, 3)), np.zeros(4))
    with pytest.raises(ValueError, match="one entry per item"):
        C.mlp_probe(
            np.zeros((3, 2)),
            [0, 1],
            np.zeros((3, 0)),
            [0, 1, 0],
            np.zeros((3, 2)),
            [0],
            np.zeros((1, 0)),
            [0],
        )


def test_accuracy_and_seed_intervals():
    from compsem import stats

    low, high = stats.mean_interval(np.ones(50))
    assert low == high == 1.0
    low, high = stats.mean_interval(np.r_[np.ones(80), np.zeros(20)], n_resamples=4000, seed=0)
    assert low < 0.8 < high and high - low == pytest.approx(2 * 1.96 * 0.04, abs=0.03)
    mean, low, high = stats.seed_interval([0.5, 0.7])
    assert mean == pytest.approx(0.6)
    assert high - mean == pytest.approx(
        12.7062047 * np.std([0.5, 0.7], ddof=1) / np.sqrt(2), rel=1e-5
    )
    assert np.isnan(stats.seed_interval([0.5])[1])


def test_features_exact():
    X, vocab = features.bow(["the man met the woman", "the woman slept"])
    assert vocab == ["man", "met", "slept", "the", "woman"]
    assert X.tolist() == [[1, 1, 0, 1, 1], [0, 0, 1, 1, 1]]
    assert features.onehot(["b", "", "a"], ["a", "b"]).tolist() == [[0, 1], [0, 0], [1, 0]]
    with pytest.raises(ValueError, match="probe vocabulary"):
        features.onehot(["c"], ["a", "b"])
    R = features.random_vectors(["x", "y", "x"], dim=4, seed=3)
    assert np.array_equal(R[0], R[2]) and not np.array_equal(R[0], R[1])
    texts, rows = features.unique_texts(["a", "b", "a"])
    assert texts == ["a", "b"] and rows.tolist() == [0, 1, 0]


def test_run_probe_with_controls_on_a_generated_task():
    items = tasks2018.ettinger2018_task("cont1", n_train=1200, n_test=200, seed=0)
    S, rows = evaluate.sentence_vectors(items, "bow")
    real = evaluate.run_probe(items, S, rows, "mlp", max_epochs=300)
    no_sentence = evaluate.run_probe(items, S, rows, "mlp", "random sentence", max_epochs=100)
    no_probe = evaluate.run_probe(items, S, rows, "mlp", "random probe", max_epochs=100)
    assert real["accuracy"] > 0.8  # a bag of words knows which verbs occur
    assert no_sentence["accuracy"] < 0.62 and no_probe["accuracy"] < 0.62
    assert real["low"] <= real["accuracy"] <= real["high"] and real["chance"] == 0.5
    with pytest.raises(ValueError, match="control"):
        evaluate.run_probe(items, S, rows, "mlp", "shuffled")


# --------------------------------------------------------------------------- geometry


def test_row_cosines_and_separation_exact():
    A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    B = np.array([[0.0, 2.0], [2.0, 2.0], [1.0, 0.0]])
    assert geometry.row_cosines(A, B).tolist() == pytest.approx([0.0, 1.0, 0.0])
    sep = geometry.separation(np.array([0.9, 0.8, 0.5]), np.array([0.5, 0.8, 0.6]), n_boot=100)
    assert sep["difference"] == pytest.approx((0.4 + 0.0 - 0.1) / 3)
    assert sep["share_closer"] == pytest.approx((1 + 0.5 + 0) / 3)


def test_minimal_pairs_and_the_bag_of_words():
    g = grammars.ettinger2018_grammar("sr", stranded_by=False, negation=("none",))
    pairs = geometry.minimal_pairs(g, 30, seed=0)
    from compsem.probing import reader

    for row in pairs.itertuples():
        s, swap, passive = (reader.read(t) for t in (row.sentence, row.swap, row.passive))
        assert sorted(s.tokens) == sorted(swap.tokens)
        assert (passive.main.agent, passive.main.patient) == (s.main.agent, s.main.patient)
        assert (swap.main.agent, swap.main.patient) == (s.main.patient, s.main.agent)
        assert reader.read(row.negation).main.negated != s.main.negated
    texts = pairs.sentence.tolist() + pairs.swap.tolist()
    X, _ = features.bow(texts)
    cos = geometry.row_cosines(X[:30], X[30:])
    assert np.allclose(cos, 1.0)  # a bag of words cannot see a role swap
    frame = pd.DataFrame({"cos": cos})
    assert len(frame) == 30


def _autograd_reference(S, local, P, y, W1, b1, W2, b2, penalty):
    """The objective of ``_loss_and_gradients`` in float64 through autograd."""
    import torch

    params = [t.double().clone().requires_grad_() for t in (W1, b1, W2, b2)]
    d = S.shape[1]
    hidden = torch.relu((S.double() @ params[0][:d])[local] + P.double() @ params[0][d:] + params[1])
    out = (hidden @ params[2] + params[3]).squeeze(1)
    loss = torch.nn.functional.binary_cross_entropy_with_logits(out, y.double())
    loss = loss + 0.5 * penalty * ((params[0] ** 2).sum() + (params[2] ** 2).sum())
    loss.backward()
    return loss.item(), [p.grad for p in params]


@pytest.mark.parametrize("k", [3, 0])  # with probe features, and an unprobed task
def test_mlp_gradients_by_hand_equal_autograd(k):
    """The probe's hand-written backpropagation (sentence rows shared by several items, ReLU,
    logistic loss, L2 on the weights only) against autograd in float64."""
    import torch

    from compsem.probing.classifiers import _loss_and_gradients

    gen = torch.Generator().manual_seed(0)
    S, P = torch.randn(7, 5, generator=gen), torch.randn(12, k, generator=gen)
    local = torch.randint(0, 7, (12,), generator=gen)
    y = (torch.rand(12, generator=gen) > 0.5).float()
    W1, b1 = torch.randn(5 + k, 9, generator=gen), torch.randn(9, generator=gen)
    W2, b2 = torch.randn(9, 1, generator=gen), torch.randn(1, generator=gen)
    loss, grads = _loss_and_gradients(S, local, P, y, W1, b1, W2, b2, 0.01)
    ref_loss, ref_grads = _autograd_reference(S, local, P, y, W1, b1, W2, b2, 0.01)
    assert loss == pytest.approx(ref_loss, rel=1e-6)
    for grad, ref in zip(grads, ref_grads, strict=True):
        assert grad.shape == ref.shape
        np.testing.assert_allclose(grad.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)


def test_minibatches_hold_whole_sentences_in_order():
    """Each minibatch: consecutive sentences of the epoch order until about batch_size items,
    every item of a sentence in it, and each item's local row pointing at its own sentence."""
    from compsem.probing.classifiers import _minibatches

    rng = np.random.default_rng(0)
    rows = rng.integers(0, 40, 300)
    rows[rows == 7] = 8  # a sentence without items
    items_of = np.argsort(rows, kind="stable")
    starts = np.searchsorted(rows[items_of], np.arange(41))
    sizes = np.diff(starts)
    order = rng.permutation(np.flatnonzero(sizes))
    batches = list(_minibatches(order, items_of, starts, sizes, 50))
    assert np.concatenate([s.numpy() for s, _, _ in batches]).tolist() == order.tolist()
    for sentences, items, local in batches:
        sentences, items, local = sentences.numpy(), items.numpy(), local.numpy()
        expected = np.concatenate([np.flatnonzero(rows == j) for j in sentences])
        assert items.tolist() == expected.tolist()
        assert (sentences[local] == rows[items]).all()
    cumulative = np.cumsum(sizes[order])
    n_batches = len(np.unique((cumulative - 1) // 50))
    assert len(batches) == n_batches
