"""The 2018 probing MLP (:func:`compsem.probing.classifiers.mlp_probe`, torch, hand-written
gradients) against scikit-learn's ``MLPClassifier``, the classifier of the 2018 authors' code
(Ettinger, Elgohary, Phillips & Resnik 2018, §4), on the released 2018 task files.

Both get the settings of the probe's docstring, which are ``MLPClassifier``'s defaults: one
hidden layer as wide as the input, ReLU, one logistic output, Adam (learning rate 1e-3),
minibatches of 200, L2 penalty ``alpha`` 1e-4, stop when the training loss has not improved by
1e-4 for more than 10 epochs, no validation split; and at most :data:`EPOCHS` epochs, the
chapter's ``mlp_max_epochs`` (the authors' 700 is the chapter's full profile). Inputs are
``[sentence vector ; probe one-hots]`` as the chapter builds them. Each is trained with several
seeds (the seed draws the initial weights and the minibatch order) and scored on the released
test items.

Agreement: the means over seeds differ by no more than :func:`bound`, three standard errors of
a difference of two means over seeds, at least one point and never more than the chapter's
5-point pattern tolerance (so the test can only pass when seed noise is smaller than the
effects the chapter reports: tens of points between tasks and encoders, e.g. the bag of words
at 100% on Content1Probe with the MLP against 59.9% with logistic regression).

What holds (measured 2026-11-26, CPU, scikit-learn 1.9.1, torch 2.13): the two agree on
Content1Probe with the bag of words (100.0 both) and on Negation with MiniLM (85.5 and 85.4;
also, not tested here, on Order 69.3/69.1, SemRole 58.7/57.5 and Content2Probe 97.5/97.1 with
MiniLM). They do NOT agree on Content2Probe with the bag of words: our probe learns it faster
(:func:`test_whole_sentence_minibatches_learn_content2_faster`). The cause is its minibatches
of whole sentences (all the probes of a sentence in one minibatch, for speed), not the
arithmetic: the same code fed one item per "sentence", i.e. minibatches of single items in
random order as scikit-learn draws them, agrees with ``MLPClassifier`` there too. The chapter's
default run caps training at 100 epochs, where the gap is largest (7.4 points); at the paper's
700 epochs it is 3.2 points, within the seed spread.

(A smaller difference, with no measurable effect: the probe draws its output layer's Glorot
bound with factor 2, ``MLPClassifier`` with factor 6 for every layer when the hidden activation
is ReLU; Content2Probe, bag of words, 5 seeds, 100 epochs: 94.0 against 93.6 with factor 6.)
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np
import pytest

EPOCHS = 100
"""The chapter's ``mlp_max_epochs`` (notebooks/probing-composition.py), for both classifiers."""

K_SE = 3.0
FLOOR = 1.0
CEILING = 5.0
"""The pattern tolerance of the chapter's targets and claims (data/targets/probing.json)."""

PAPER = dict(lr=1e-3, batch_size=200, alpha=1e-4, tol=1e-4, n_iter_no_change=10, max_epochs=700)
"""The 2018 code's training settings, ``MLPClassifier``'s defaults (the probe's docstring), in
the probe's argument names."""


def _classifiers():
    from compsem.probing import classifiers

    return classifiers


def sklearn_mlp(width: int, seed: int, max_epochs: int = EPOCHS):
    """``MLPClassifier`` with the 2018 settings, every one spelled out (so that a change of
    scikit-learn's defaults cannot change the comparison), at most ``max_epochs`` epochs."""
    from sklearn.neural_network import MLPClassifier

    return MLPClassifier(
        hidden_layer_sizes=(width,),
        activation="relu",
        solver="adam",
        alpha=PAPER["alpha"],
        batch_size=PAPER["batch_size"],
        learning_rate_init=PAPER["lr"],
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        max_iter=max_epochs,
        tol=PAPER["tol"],
        n_iter_no_change=PAPER["n_iter_no_change"],
        shuffle=True,
        early_stopping=False,
        random_state=seed,
    )


def test_both_have_the_2018_settings():
    """The settings compared: ``MLPClassifier``'s defaults (what the 2018 code ran) but for the
    hidden width, the seed and the epoch cap (the chapter's, beside the paper's 700), and the
    probe's defaults are the same."""
    from sklearn.neural_network import MLPClassifier

    ours = sklearn_mlp(10, 0).get_params()
    defaults = MLPClassifier().get_params()
    differ = {k for k in defaults if ours[k] != defaults[k]}
    assert differ == {"hidden_layer_sizes", "max_iter", "random_state", "batch_size"}
    assert defaults["batch_size"] == "auto" and ours["batch_size"] == 200  # auto: min(200, n)
    assert sklearn_mlp(10, 0, max_epochs=700).get_params()["max_iter"] == PAPER["max_epochs"]
    parameters = inspect.signature(_classifiers().mlp_probe).parameters
    assert {name: parameters[name].default for name in PAPER} == PAPER


@functools.cache
def _task(task: str, encoder: str):
    """``(S, rows, P, y, train, test)`` of a released 2018 task, ``S`` from ``encoder`` (through
    the embedding cache)."""
    from compsem.data import probing as released_files
    from compsem.models import ModelUnavailableError
    from compsem.probing import evaluate, features

    items = released_files.load_task(task)
    try:
        S, rows = evaluate.sentence_vectors(items, encoder, device="cpu")
    except ModelUnavailableError as error:  # pragma: no cover - environment without the model
        pytest.skip(str(error))
    P = features.probe_features(items)
    y = items["label"].to_numpy().astype(int)
    train = (items["split"] == "train").to_numpy()
    return S, rows, P, y, train, ~train


@functools.cache
def accuracies(task: str, encoder: str, arm: str, n_seeds: int) -> tuple[float, ...]:
    """Test accuracies (percent) for seeds ``0 .. n_seeds - 1`` of one arm:

    - ``probe``: :func:`~compsem.probing.classifiers.mlp_probe` as the chapter calls it
      (:func:`compsem.probing.evaluate.run_probe`, without its fit cache): minibatches of whole
      sentences;
    - ``probe, item minibatches``: the same function on the items' full inputs, each item its
      own "sentence", so its minibatches are single items in random order, as scikit-learn's;
    - ``sklearn``: :func:`sklearn_mlp` on the same inputs, one thread like the probe.
    """
    from sklearn.exceptions import ConvergenceWarning

    from compsem.determinism import thread_limit

    C = _classifiers()
    S, rows, P, y, train, test = _task(task, encoder)
    X = np.hstack([S[rows], P]).astype(np.float32)
    out = []
    for seed in range(n_seeds):
        if arm == "probe":
            r = C.mlp_probe(S, rows[train], P[train], y[train], S, rows[test], P[test], y[test],
                            seed=seed, max_epochs=EPOCHS)
            accuracy = r.accuracy
        elif arm == "probe, item minibatches":
            n_train, n_test = int(train.sum()), int(test.sum())
            r = C.mlp_probe(X[train], np.arange(n_train), np.zeros((n_train, 0)), y[train],
                            X[test], np.arange(n_test), np.zeros((n_test, 0)), y[test],
                            seed=seed, max_epochs=EPOCHS)
            accuracy = r.accuracy
        elif arm == "sklearn":
            with thread_limit(1), warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)  # the cap of EPOCHS
                model = sklearn_mlp(X.shape[1], seed).fit(X[train], y[train])
            accuracy = float((model.predict(X[test]) == y[test]).mean())
        else:
            raise ValueError(arm)
        out.append(100 * accuracy)
    return tuple(out)


def bound(a, b) -> float:
    """How far two means over seeds may lie apart by seed noise alone (percentage points):
    ``K_SE`` standard errors of the difference of two independent means, ``sqrt(sd_a^2 / n_a +
    sd_b^2 / n_b)`` (about a 0.3% two-sided tail for a normal difference), at least ``FLOOR``
    point (10 of the 1,000 test items: where every seed of both lands on the same accuracy,
    e.g. 100%, the seed SDs are 0 and say nothing about what a few seeds more would give).
    Three rather than two standard errors because the SDs themselves come from 3-10 seeds."""
    se = np.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
    return max(FLOOR, K_SE * float(se))


def _describe(name_a, a, name_b, b) -> str:
    return (f"{name_a} {np.mean(a):.1f} (SD {np.std(a, ddof=1):.1f}, {np.round(a, 1).tolist()}) "
            f"vs {name_b} {np.mean(b):.1f} (SD {np.std(b, ddof=1):.1f}, "
            f"{np.round(b, 1).tolist()}); bound {bound(a, b):.2f}")


@pytest.mark.needs_data
@pytest.mark.parametrize(
    ("task", "encoder", "n_seeds"),
    [
        ("cont1", "bow", 5),  # needs the probe x sentence interaction: 100% (logistic reg. 59.9%)
        ("neg", "minilm", 3),  # the chapter's MiniLM Negation (far above SemRole)
    ],
)
def test_probe_agrees_with_sklearn(task, encoder, n_seeds):
    """Our probe and ``MLPClassifier`` reach the same mean test accuracy within the seed spread.
    Measured: Content1Probe, bag of words, 5 seeds: 100.0 and 100.0 (every seed; bound 1 point);
    Negation, MiniLM, 3 seeds: 85.5 (SD 0.5) and 85.4 (SD 0.6), 0.1 apart against a bound of
    1.3 points."""
    ours = accuracies(task, encoder, "probe", n_seeds)
    theirs = accuracies(task, encoder, "sklearn", n_seeds)
    message = _describe("probe", ours, "sklearn", theirs)
    assert bound(ours, theirs) <= CEILING, f"seed spread too wide to compare: {message}"
    assert abs(np.mean(ours) - np.mean(theirs)) <= bound(ours, theirs), message


@pytest.mark.needs_data
def test_whole_sentence_minibatches_learn_content2_faster():
    """Content2Probe with the bag of words, 10 seeds, 100 epochs: the one measured place where
    our probe and ``MLPClassifier`` disagree. Measured: probe 93.6 (SD 1.6), ``MLPClassifier``
    86.1 (SD 2.8), a difference of 7.4 points against a bound of 3.1; the probe's code with
    scikit-learn's minibatches (single items in random order) 87.3 (SD 3.0), 1.1 from
    ``MLPClassifier``'s against a bound of 3.9.

    So the difference is the minibatches, not the model or its gradients: the probe puts all the
    items of a sentence (about four on Content2Probe, differing only in their two probes and
    label) into one minibatch, a computational shortcut (:mod:`compsem.probing.classifiers`)
    that here also changes the learning: the probe-sentence interaction is learned in fewer
    epochs (plausibly because the sentence's own part of the gradient cancels between its TRUE
    and FALSE items within a minibatch). The gap narrows with training: with the paper's cap of
    700 epochs and the loss-plateau rule (our probe stops after 190-220 epochs,
    ``MLPClassifier`` after 280-340), 10 seeds: probe 96.0 (SD 1.5), ``MLPClassifier`` 92.8
    (SD 3.5), 3.2 apart against a bound of 3.6; item minibatches 94.4 (SD 2.2). With averaged
    GloVe 50-d (3 seeds, 100 epochs): 73.5 against 69.2 (item minibatches 68.8). With MiniLM,
    and on the other tasks, the two agree (module docstring).
    """
    ours = accuracies("cont2", "bow", "probe", 10)
    items = accuracies("cont2", "bow", "probe, item minibatches", 10)
    theirs = accuracies("cont2", "bow", "sklearn", 10)
    same = _describe("probe, item minibatches", items, "sklearn", theirs)
    assert bound(items, theirs) <= CEILING, f"seed spread too wide to compare: {same}"
    assert abs(np.mean(items) - np.mean(theirs)) <= bound(items, theirs), same
    differ = _describe("probe", ours, "sklearn", theirs)
    assert np.mean(ours) - np.mean(theirs) > bound(ours, theirs), (
        f"whole-sentence minibatches no longer beat MLPClassifier on Content2Probe: {differ}; "
        "update this test and the chapter's Deviations")
