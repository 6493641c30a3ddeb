"""The probing classifiers of the two papers.

- :func:`logreg_cv`: L2 logistic regression tuned by 5-fold cross-validation over C
  (Ettinger, Elgohary & Resnik 2016, §4 and footnote 2; the grid :data:`PAPER_CS` is the one of
  the authors' released 2018 code, ``aetting/compeval``, since the 2016 paper gives none).
- :func:`mlp_probe`: the 2018 classifier, "a multi-layer perceptron with a single hidden layer
  of the same size as the input, with ReLU activation" (Ettinger et al. 2018, §4, following
  Adi et al. 2017), with scikit-learn's ``MLPClassifier`` defaults that the authors' released
  code used (Adam, learning rate 1e-3, minibatches of 200, L2 penalty 1e-4, at most 700
  epochs, stop when the training loss has not improved by 1e-4 for more than 10 epochs, Glorot
  initialisation). Implemented in torch so that the first layer is computed once per distinct
  sentence of a minibatch (items of a sentence share a minibatch): the same model, 2-4x less
  arithmetic on the 2018 sets, where a sentence carries several probes. Adam is torch's fused
  implementation (one kernel per step instead of several per tensor: 10-16% less time per
  probe at 384 and 768 inputs, measured 2026-11-24; the same update, rounded differently). The
  gradients are written out by hand (:func:`_loss_and_gradients`, tested against autograd) and
  an epoch's minibatch indices are built at once: 100 epochs on the released SemRole and
  Negation sets took 25-45% less time than through autograd (SemRole: SDAE 256-d 3.5 -> 1.9 s,
  MiniLM 3.9 -> 2.7 s, MPNet 10.8 -> 7.4 s; measured 2026-11-24, one thread, idle machine).

Intervals for their accuracies are in :mod:`compsem.stats` (``mean_interval``, ``seed_interval``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from compsem.determinism import thread_limit

PAPER_CS = (1e-5, 1e-3, 1e-2, 1.0, 10.0, 100.0, 1000.0)
"""The C grid of the authors' GridSearchCV (their released code, ``aetting/compeval``)."""


@dataclass(frozen=True)
class ProbeResult:
    """Test accuracy, the predictions, and what was chosen (C) or how long it trained."""

    accuracy: float
    predictions: np.ndarray
    C: float | None = None
    epochs: int | None = None


def _check(X_train, y_train, X_test, y_test):
    X_train, X_test = np.asarray(X_train, dtype=np.float32), np.asarray(X_test, dtype=np.float32)
    y_train, y_test = np.asarray(y_train).astype(int), np.asarray(y_test).astype(int)
    if X_train.ndim != 2 or X_test.ndim != 2 or X_train.shape[1] != X_test.shape[1]:
        raise ValueError(
            f"X_train {X_train.shape} and X_test {X_test.shape} must be 2-d with "
            "the same number of columns"
        )
    if len(X_train) != len(y_train) or len(X_test) != len(y_test):
        raise ValueError("X and y disagree in length")
    if len(np.unique(y_train)) < 2:
        raise ValueError("y_train has a single class; a classifier cannot be trained")
    return X_train, y_train, X_test, y_test


def _standardise(X_train, X_test):
    """Both sets centred and scaled by the training set's column means and SDs (columns constant
    on the training set are only centred)."""
    mean, sd = X_train.mean(0), X_train.std(0)
    sd[sd <= 1e-6 * max(float(sd.max()), 1e-12)] = 1.0
    return (X_train - mean) / sd, (X_test - mean) / sd


def _scorer(scoring: str):
    """A scorer object (scikit-learn 1.9's LogisticRegressionCV rejects 'f1_weighted' given as a
    string for binary labels)."""
    from sklearn.metrics import accuracy_score, f1_score, make_scorer

    if scoring == "f1_weighted":
        return make_scorer(f1_score, average="weighted")
    if scoring == "accuracy":
        return make_scorer(accuracy_score)
    raise ValueError(f"scoring must be 'f1_weighted' or 'accuracy', not {scoring!r}")


def logreg_cv(
    X_train,
    y_train,
    X_test,
    y_test,
    Cs=PAPER_CS,
    folds: int = 5,
    seed: int = 0,
    standardise: bool = True,
    scoring: str = "f1_weighted",
    tol: float = 1e-4,
    max_iter: int = 200,
) -> ProbeResult:
    """L2 logistic regression, C chosen by stratified ``folds``-fold cross-validation on the
    training set (scored by weighted F1 as in the authors' code), refitted on all of it, scored
    on the test set (2016 §4). ``standardise``: features centred and scaled by the training
    set's mean and SD first (our choice; it makes one C grid fit every encoder). ``tol`` and
    ``max_iter`` of L-BFGS: 1e-4 is scikit-learn's default; what a looser stop changes and
    saves is measured by ``benchmarks/bench_probe_tol.py`` (its figures in
    ``benchmarks/results/bench_probe_tol_cpu2.txt``)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.model_selection import StratifiedKFold

    X_train, y_train, X_test, y_test = _check(X_train, y_train, X_test, y_test)
    if standardise:
        X_train, X_test = _standardise(X_train, X_test)
    cv = StratifiedKFold(folds, shuffle=True, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LogisticRegressionCV(
            Cs=list(Cs),
            cv=cv,
            scoring=_scorer(scoring),
            l1_ratios=(0.0,),
            max_iter=max_iter,
            tol=tol,
            use_legacy_attributes=False,
        ).fit(X_train, y_train)
    predictions = model.predict(X_test)
    return ProbeResult(float((predictions == y_test).mean()), predictions, C=float(model.C_))


def logreg(
    X_train, y_train, X_test, y_test, C: float = 1.0, standardise: bool = True
) -> ProbeResult:
    """Plain L2 logistic regression with a fixed C (the audit controls)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    X_train, y_train, X_test, y_test = _check(X_train, y_train, X_test, y_test)
    if standardise:
        X_train, X_test = _standardise(X_train, X_test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LogisticRegression(C=C, max_iter=500).fit(X_train, y_train)
    predictions = model.predict(X_test)
    return ProbeResult(float((predictions == y_test).mean()), predictions, C=C)


def _glorot(fan_in: int, fan_out: int, factor: float, generator):
    import torch

    bound = np.sqrt(factor / (fan_in + fan_out))
    return (torch.rand(fan_in, fan_out, generator=generator) * 2 - 1) * bound


def _minibatches(order, items_of, starts, sizes, batch_size: int):
    """One epoch's minibatches of whole sentences, in the sentence ``order``: consecutive
    sentences until a batch holds about ``batch_size`` items (``items_of[starts[j]:starts[j + 1]]``
    are the items of sentence ``j``, ``sizes`` their counts). Yields torch index tensors
    ``(sentences, items, local)``: the batch's sentence rows, its item rows (sentence by
    sentence) and each item's sentence position within the batch."""
    import torch

    lengths = sizes[order]
    ends = np.cumsum(lengths)
    begins = ends - lengths
    first = np.flatnonzero(np.diff((ends - 1) // batch_size, prepend=-1))  # each batch's first
    bounds = np.append(first, len(order))
    items = items_of[np.arange(ends[-1]) - np.repeat(begins - starts[order], lengths)]
    local = np.repeat(np.arange(len(order)) - np.repeat(first, np.diff(bounds)), lengths)
    item_bounds = np.append(begins[first], ends[-1])
    for s0, s1, i0, i1 in zip(bounds[:-1], bounds[1:], item_bounds[:-1], item_bounds[1:],
                              strict=True):
        yield (torch.from_numpy(order[s0:s1]), torch.from_numpy(items[i0:i1]),
               torch.from_numpy(local[i0:i1]))


def _loss_and_gradients(S, local, P, y, W1, b1, W2, b2, penalty: float):
    """The minibatch objective of scikit-learn's ``MLPClassifier`` (mean logistic loss plus
    ``penalty / 2`` times the squared weights, ``penalty = alpha / n``) and its gradients with
    respect to ``W1, b1, W2, b2``, by hand (backpropagation through ReLU; one autograd graph per
    step cost more than the arithmetic on these small layers). The first layer is computed once
    per distinct sentence: ``[s ; p] W1 = s W1[:d] + p W1[d:]``, ``S`` one row per sentence and
    ``local`` each item's row in it."""
    import torch
    from torch.nn.functional import binary_cross_entropy_with_logits

    n, d = len(y), S.shape[1]
    H = S @ W1[:d]
    Z = torch.addmm(b1, P, W1[d:]).add_(H[local])
    A = torch.relu(Z)
    out = torch.addmm(b2, A, W2).squeeze(1)
    squares = torch.dot(W1.view(-1), W1.view(-1)) + torch.dot(W2.view(-1), W2.view(-1))
    loss = binary_cross_entropy_with_logits(out, y).item() + 0.5 * penalty * squares.item()
    g_out = (torch.sigmoid(out) - y).div_(n)
    gW2 = torch.addmm(W2, A.T, g_out[:, None], beta=penalty)
    # ReLU's backward, the kernel autograd uses (20x faster here than masked_fill_, same bits)
    gZ = torch.ops.aten.threshold_backward(torch.outer(g_out, W2[:, 0]), Z, 0.0)
    gW1 = torch.empty_like(W1)
    torch.mm(S.T, torch.zeros_like(H).index_add_(0, local, gZ), out=gW1[:d])
    torch.mm(P.T, gZ, out=gW1[d:])
    gW1.add_(W1, alpha=penalty)
    return loss, (gW1, gZ.sum(0), gW2, g_out.sum().reshape(1))


def mlp_probe(
    S_train,
    rows_train,
    P_train,
    y_train,
    S_test,
    rows_test,
    P_test,
    y_test,
    hidden: int | None = None,
    seed: int = 0,
    max_epochs: int = 700,
    batch_size: int = 200,
    lr: float = 1e-3,
    alpha: float = 1e-4,
    tol: float = 1e-4,
    n_iter_no_change: int = 10,
    threads: int | None = 1,
) -> ProbeResult:
    """The 2018 probing MLP on items ``[sentence vector ; probe features]``.

    ``S_*`` hold one row per distinct sentence, ``rows_*`` the sentence row of each item and
    ``P_*`` the probe features of each item (zero columns for an unprobed task). The hidden
    layer has ``hidden`` units (default: the input size, as in the paper), ReLU; the output is
    one logistic unit. Training follows scikit-learn's ``MLPClassifier`` (module docstring).
    ``threads``: torch threads while training (1 by default: the minibatch products are small,
    and on a shared machine several threads contend and run many times slower).
    """
    import torch

    with thread_limit(threads):
        S_train, S_test = np.asarray(S_train, np.float32), np.asarray(S_test, np.float32)
        P_train, P_test = np.asarray(P_train, np.float32), np.asarray(P_test, np.float32)
        rows_train, rows_test = np.asarray(rows_train, np.int64), np.asarray(rows_test, np.int64)
        y_train, y_test = np.asarray(y_train, np.float32), np.asarray(y_test).astype(int)
        if S_train.shape[1] != S_test.shape[1] or P_train.shape[1] != P_test.shape[1]:
            raise ValueError("train and test features differ in width")
        if not (len(rows_train) == len(P_train) == len(y_train)) or len(rows_test) != len(P_test):
            raise ValueError("rows, probe features and labels must have one entry per item")
        if len(np.unique(y_train)) < 2:
            raise ValueError("y_train has a single class; a classifier cannot be trained")
        d, k = S_train.shape[1], P_train.shape[1]
        hidden = hidden or d + k
        gen = torch.Generator().manual_seed(seed)
        W1 = _glorot(d + k, hidden, 6.0, gen)
        b1 = (torch.rand(hidden, generator=gen) * 2 - 1) * np.sqrt(6.0 / (d + k + hidden))
        W2 = _glorot(hidden, 1, 2.0, gen)
        b2 = (torch.rand(1, generator=gen) * 2 - 1) * np.sqrt(2.0 / (hidden + 1))
        params = [W1, b1, W2, b2]
        optimiser = torch.optim.Adam(params, lr=lr, betas=(0.9, 0.999), eps=1e-8, fused=True)
        S_t, P_t, y_t = (
            torch.from_numpy(S_train),
            torch.from_numpy(P_train),
            torch.from_numpy(y_train),
        )

        def logits(S, rows, P):
            # first layer once per distinct sentence: [s ; p] W1 = s W1[:d] + p W1[d:]
            return (torch.relu((S @ W1[:d])[rows] + P @ W1[d:] + b1) @ W2 + b2).squeeze(1)

        # minibatches of whole sentences, about batch_size items each
        n_sent = len(S_train)
        items_of = np.argsort(rows_train, kind="stable")
        starts = np.searchsorted(rows_train[items_of], np.arange(n_sent + 1))
        sizes = np.diff(starts)
        present = np.flatnonzero(sizes)
        rng = np.random.default_rng(seed)
        best, stale, epoch = np.inf, 0, 0
        with torch.no_grad():
            for epoch in range(1, max_epochs + 1):  # noqa: B007 (the epoch count is reported)
                order = present[rng.permutation(len(present))]
                total, count = 0.0, 0
                for sentences, items, local in _minibatches(order, items_of, starts, sizes,
                                                            batch_size):
                    n = len(items)
                    loss, grads = _loss_and_gradients(
                        S_t[sentences], local, P_t[items], y_t[items], W1, b1, W2, b2, alpha / n
                    )
                    for param, grad in zip(params, grads, strict=True):
                        param.grad = grad
                    optimiser.step()
                    total += loss * n
                    count += n
                epoch_loss = total / count
                if epoch_loss > best - tol:
                    stale += 1
                else:
                    stale = 0
                best = min(best, epoch_loss)
                if stale > n_iter_no_change:
                    break
            scores = logits(
                torch.from_numpy(S_test), torch.from_numpy(rows_test), torch.from_numpy(P_test)
            ).numpy()
        predictions = (scores > 0).astype(int)
        return ProbeResult(float((predictions == y_test).mean()), predictions, epochs=epoch)
