"""Budget-aware scheduling of the COGS runs (compsem.cogs.seq2seq.schedule): the runbook as
units, estimates from measured figures, the greedy plan in priority order, and a unit that
cannot finish never started."""

from __future__ import annotations

import pytest

from compsem.cogs.seq2seq import schedule as S
from compsem.cogs.seq2seq.config import make_config


def _metrics(steps, seconds, stop="early stopping", device="cuda: H100", decode=100.0, seeds=None):
    return {"steps": steps, "train_seconds": seconds, "stop_reason": stop, "device": device,
            "decode_seconds": decode, "trained_with_seeds": seeds}


def test_the_runbook_expands_in_priority_order():
    units = S.units()
    labels = [u.label for u in units]
    assert labels[0].startswith("Table 4-5: Transformer, 1 exposure") and "seed 4" in labels[0]
    assert labels.index(next(x for x in labels if x.startswith("Chapter 5"))) == 2
    groups = [u for u in units if "--group" in u.argv]
    assert groups and all(len(u.configs) == 5 for u in groups)  # a seed group of five seeds
    assert {c["seed"] for u in groups for c in u.configs} == {1, 2, 3, 4, 5}
    single = next(u for u in units if u.command == "auxiliary")
    assert single.argv.count("--seed") == 1 and single.argv[single.argv.index("--seed") + 1] == "1"
    assert "--no-fuse" in single.argv and single.module == "compsem.cogs.seq2seq.auxiliary_train"
    # Chapter 5 seed by seed: a seed's baseline, then its glossing run, then the next seed's
    chapter5 = [u for u in units if u.command == "auxiliary"]
    assert [(u.configs[0]["seed"], u.configs[0]["auxiliary"]["objective"]) for u in chapter5[:4]] \
        == [(1, "none"), (1, "gloss"), (2, "none"), (2, "gloss")]
    assert all(len(u.configs) == 1 for u in chapter5) and len(chapter5) == 10
    assert chapter5[1].argv[chapter5[1].argv.index("--objective") + 1:][:1] == ("gloss",)
    with pytest.raises(ValueError, match="mode 'pairs' is not single, group or seed"):
        S.units((("x", "train", ("--model", "transformer"), "pairs"),))
    # every unit's arguments give back exactly its configurations
    for unit in units[:3] + groups[:1]:
        assert S._configurations(unit.command, unit.argv) == list(unit.configs)


def test_chapter5_fused_drops_no_fuse_from_its_units_only():
    plain, fused = S.units(), S.units(S.fused())
    assert [u.configs for u in plain] == [u.configs for u in fused]  # the same configurations
    for a, b in zip(plain, fused, strict=True):
        assert b.argv == tuple(x for x in a.argv if x != "--no-fuse")
        assert ("--no-fuse" in a.argv) == (a.command == "auxiliary")


def test_figures_are_measured_on_gpu_runs_only():
    tf = make_config("transformer", seed=1)
    pairs = [(tf, _metrics(4000, 200.0)), (tf, _metrics(4000, 240.0)),
             (tf, _metrics(2000, 400.0, stop="time limit")),
             (tf, _metrics(9000, 9000.0, device="cpu: x86_64"))]
    figures = S.measured(pairs)
    assert figures.seconds_per_update == {"transformer": pytest.approx(0.06)}  # median of 3
    assert figures.updates == {("transformer", 1): 4000}  # a time-limited run is no stop
    assert figures.decode_seconds == {("transformer", "beam"): 100.0}
    grouped = S.measured([(tf, _metrics(4000, 1000.0, seeds=[1, 2, 3, 4, 5]))])
    assert grouped.group_seconds_per_update["transformer"] == pytest.approx(0.05)  # per seed
    assert grouped.seconds_per_update == {}  # a group's speed is not a single run's


def test_decodings_in_batches_of_the_planned_size_are_the_figures_else_an_upper_bound_noted():
    tf = make_config("transformer", seed=1)
    sized = lambda decode, batch: {**_metrics(4000, 200.0, decode=decode), "decode_batch_size": batch}  # noqa: E731
    old = [(tf, _metrics(4000, 200.0, decode=300.0)), (tf, _metrics(4000, 200.0, decode=250.0))]  # 128
    assert S.measured(old).decode_seconds == {("transformer", "beam"): 300.0}  # nothing planned
    assert S.measured(old).decode_notes == {}
    bound = S.measured(old, decode_batch_size=512)
    assert bound.decode_seconds == {("transformer", "beam"): 300.0}
    note = bound.decode_notes[("transformer", "beam")]
    assert note == " (in batches of 128, not 512: an upper bound)"
    guess = S.estimate(_unit(), bound)
    assert guess.bound and "decoding 300 s (in batches of 128, not 512: an upper bound)" in guess.note
    mixed = S.measured(old + [(tf, sized(90.0, 512)), (tf, sized(110.0, 512))], decode_batch_size=512)
    assert mixed.decode_seconds == {("transformer", "beam"): 110.0} and mixed.decode_notes == {}
    assert mixed.decode_runs == {("transformer", "beam"): [90.0, 110.0]}
    assert S.measured(old + [(tf, sized(90.0, 512))], 128).decode_runs[("transformer", "beam")] == [300.0, 250.0]


def test_the_schedule_passes_its_decoding_batch_size_to_the_commands(monkeypatch):
    seen = {}
    monkeypatch.setattr(S, "committed_runs", lambda: [])
    monkeypatch.setattr(S, "run_plan", lambda steps, minutes, extra, **kw: seen.setdefault("extra", extra) and 0)
    monkeypatch.setattr(S, "measured", lambda pairs, batch=None: seen.setdefault("batch", batch) and FIGURES)
    assert S.main(["--minutes", "5", "--run", "--device", "cpu"]) == 0
    assert seen == {"batch": 128, "extra": ["--device", "cpu", "--decode-batch-size", "128"]}
    seen.clear()
    S.main(["--minutes", "5", "--run", "--device", "cpu", "--decode-batch-size", "512"])
    assert seen["batch"] == 512 and seen["extra"][-2:] == ["--decode-batch-size", "512"]


def _unit(model="transformer", seeds=(1,), exposures=1):
    configs = tuple(make_config(model, seed=s, exposures=exposures) for s in seeds)
    return S.Unit(f"{model} {seeds}", "train", ("--model", model), configs)


FIGURES = S.Measured({"transformer": 0.05}, {("transformer", 1): 4000},
                     {("transformer", "beam"): 120.0})


@pytest.fixture(autouse=True)
def _benchmarks_restored(monkeypatch):
    """Tests may remove a benchmarked speed; each test sees the module's own figures."""
    monkeypatch.setattr(S, "BENCH_SECONDS_PER_UPDATE", dict(S.BENCH_SECONDS_PER_UPDATE))


def test_an_estimate_is_updates_times_speed_plus_decoding():
    guess = S.estimate(_unit(), FIGURES)
    assert guess.minutes == pytest.approx((S.STARTUP_SECONDS + 4000 * 0.05 + 120) / 60)
    assert guess.train_minutes == pytest.approx(4000 * 0.05 / 60)
    assert not guess.bound and "measured" in guess.note
    guessed = S.estimate(_unit(exposures=100), FIGURES)  # no run stopped there: 1 exposure's stop
    assert guessed.bound and "(as with 1 exposure(s))" in guessed.note
    assert guessed.train_minutes == pytest.approx(4000 * 0.05 / 60)
    capped = S.estimate(_unit(exposures=100), S.Measured({"transformer": 0.05}, {}, {}))
    assert capped.bound and "(cap)" in capped.note  # no stop of the model at all: the cap
    assert capped.train_minutes == pytest.approx(30000 * 0.05 / 60)
    given = S.estimate(_unit(), FIGURES, speeds={"transformer": 0.02})
    assert given.train_minutes == pytest.approx(4000 * 0.02 / 60) and "given" in given.note
    large = S.estimate(_unit("transformer-large"), FIGURES)
    assert large.note.count("(benchmark)") == 2  # its speed and its decoding: no sibling decoded
    # a size variant without a stop of its own: the 2-layer model's, marked as a guess
    assert large.bound and "4,000 updates (as the transformer, 1 exposure(s))" in large.note
    assert large.train_minutes == pytest.approx(4000 * S.BENCH_SECONDS_PER_UPDATE["transformer-large"] / 60)
    del S.BENCH_SECONDS_PER_UPDATE["transformer-large"]  # restored by the fixture below
    assert S.estimate(_unit("transformer-large"), FIGURES) is None  # no speed: not guessed
    several = S.estimate(_unit(seeds=(1, 2, 3)), FIGURES)
    assert several.train_minutes == pytest.approx(3 * 4000 * 0.05 / 60)  # one after the other


def test_a_seed_group_is_estimated_with_its_speed_up():
    """A ``--group`` unit: its seeds' updates divided by the benchmarked speed-up, or at the
    speed measured on committed group runs where there are some."""
    lstms = tuple(make_config("lstm", seed=s) for s in (1, 2, 3, 4, 5))
    unit = S.Unit("lstm group", "train", ("--model", "lstm", "--group"), lstms)
    figures = S.Measured({"lstm": 0.2}, {("lstm", 1): 1000}, {("lstm", "beam"): 60.0})
    guess = S.estimate(unit, figures)
    gain = S.BENCH_GROUP_SPEEDUP["lstm"]
    assert gain > 1 and guess.train_minutes == pytest.approx(5 * 1000 * 0.2 / gain / 60)
    assert "group speed-up" in guess.note
    figures = S.Measured({"lstm": 0.2}, {("lstm", 1): 1000}, {("lstm", "beam"): 60.0}, {"lstm": 0.05})
    assert S.estimate(unit, figures).train_minutes == pytest.approx(5 * 1000 * 0.05 / 60)


def test_the_plan_is_greedy_in_priority_order_and_never_starts_what_cannot_finish():
    first, big, small, done = _unit(seeds=(1,)), _unit("lstm"), _unit(seeds=(2,)), \
        _unit(seeds=(3,))
    each = S.estimate(first, FIGURES).minutes
    steps = S.plan([first, big, small, done], 2 * each + 0.01, FIGURES,  # big: no stop, the cap
                   done=lambda u: u is done, speeds={"lstm": 0.05}, window=20)
    assert [s.decision for s in steps] == ["run", "longer than a window", "run", "done"]
    steps = S.plan([first, small], 1.5 * each, FIGURES, done=lambda u: False)
    assert [s.decision for s in steps] == ["run", "does not fit"]
    del S.BENCH_SECONDS_PER_UPDATE["transformer-large"]
    assert [s.decision for s in S.plan([_unit("transformer-large")], 60, FIGURES,
                                       done=lambda u: False)] == ["no speed known"]
    assert "1 unit(s) to run" in S.show(steps, 1.5 * each)


class FakeProcess:
    """A command that ends ``minutes`` after it starts, by the fake clock ``now``."""

    def __init__(self, now, minutes, code=0):
        self.now, self.ends, self.code = now, now[0] + 60 * minutes, code

    def poll(self):
        return self.code if self.now[0] >= self.ends else None


def test_running_the_plan_budgets_each_command_and_skips_what_no_longer_fits():
    first, second = _unit(seeds=(1,)), _unit(seeds=(2,))
    each = S.estimate(first, FIGURES)
    steps = [S.Step(first, each, "run"), S.Step(second, each, "run")]
    now, calls = [0.0], []

    def launch(argv):
        calls.append(argv)
        return FakeProcess(now, each.minutes * 1.5)  # the first takes longer than estimated

    def pause(seconds):
        now[0] += seconds

    problems = S.run_plan(steps, 2 * each.minutes + 0.5, ["--device", "cuda"], clock=lambda: now[0],
                          launch=launch, pause=pause)
    assert problems == 1 and len(calls) == 1  # the second is not started
    budget = float(calls[0][calls[0].index("--train-minutes") + 1])
    decode_and_start = each.minutes - each.train_minutes
    assert budget == pytest.approx(2 * each.minutes + 0.5 - decode_and_start, abs=0.01)
    assert calls[0][1:3] == ["-m", "compsem.cogs.seq2seq.train"] and "--device" in calls[0]


def test_with_jobs_units_share_the_window_and_start_as_slots_come_free():
    """``jobs=2``: two units fit side by side where one after the other would not; a third starts
    when a slot comes free, with the minutes then left; a failed command counts."""
    a, b, c = (_unit(seeds=(k,)) for k in (1, 2, 3))
    each = S.estimate(a, FIGURES).minutes
    steps = S.plan([a, b, c], 1.5 * each, FIGURES, done=lambda u: False, jobs=2)
    assert [s.decision for s in steps] == ["run", "run", "does not fit"]
    steps = S.plan([a, b, c], 2 * each + 0.01, FIGURES, done=lambda u: False, jobs=2)
    assert [s.decision for s in steps] == ["run", "run", "run"]
    assert "3 unit(s) to run" in S.show(steps, 2 * each + 0.01, jobs=2)
    assert "2 at a time" in S.show(steps, 2 * each + 0.01, jobs=2)
    now, started = [0.0], []

    def launch(argv):
        started.append((now[0], float(argv[argv.index("--train-minutes") + 1])))
        return FakeProcess(now, each, code=1 if len(started) == 3 else 0)

    def pause(seconds):
        now[0] += seconds

    problems = S.run_plan(steps, 2 * each + 0.01, clock=lambda: now[0], jobs=2, launch=launch,
                          pause=pause)
    assert problems == 1  # the third failed
    assert [t for t, _ in started[:2]] == [0.0, 0.0]  # side by side
    assert started[2][0] == pytest.approx(60 * each, abs=S.POLL_SECONDS)  # when a slot came free
    assert started[2][1] < started[0][1]  # with the minutes then left


@pytest.mark.parametrize("text", ["transformer", "=0.1", "lstm=fast", "lstm=-1"])
def test_a_bad_speed_names_the_value(text):
    with pytest.raises(S.argparse.ArgumentTypeError, match="MODEL=SECONDS"):
        S._speed(text)


def test_a_size_variant_decodes_as_its_trained_siblings_scaled_by_the_benchmark():
    """No decoding of its own: the median of the other sizes' decodings, each scaled by the
    benchmarked beam speeds' ratio, marked; a decoding of its own wins."""
    figures = S.Measured({"transformer": 0.05}, {("transformer", 1): 4000},
                         {("transformer", "beam"): 300.0}, {},
                         {("transformer", "beam"): [100.0, 300.0], ("transformer-small", "beam"): [50.0]})
    rates = S.BENCH_BEAM_SENTENCES_PER_SECOND
    scaled = sorted([100.0 * rates["transformer"], 300.0 * rates["transformer"],
                     50.0 * rates["transformer-small"]])
    guess = S.estimate(_unit("transformer-large"), figures)
    decode = guess.minutes * 60 - S.STARTUP_SECONDS - guess.train_minutes * 60
    assert decode == pytest.approx(scaled[1] / rates["transformer-large"])
    assert "(scaled from the other sizes)" in guess.note and guess.bound
    own = S.estimate(_unit("transformer"), figures)
    assert "(scaled" not in own.note and own.minutes * 60 == pytest.approx(
        S.STARTUP_SECONDS + 4000 * 0.05 + 300.0)
    assert S._sibling_decoding("transformer-large", "greedy", figures) is None
    assert S._sibling_decoding("lstm", "beam", figures) is None  # no trained sibling


def test_what_the_cache_holds_shortens_the_estimate():
    """A run trained to its rule in this machine's cache is estimated by its decoding; one cut
    by a time budget by the updates it lacks, at least one validation interval."""
    unit = _unit()
    full = S.estimate(unit, FIGURES)
    decode_only = S.estimate(unit, FIGURES, progress=lambda c: {"cogs": (4000, True)})
    assert decode_only.train_minutes == 0 and "finished in the cache" in decode_only.note
    assert decode_only.minutes == pytest.approx(full.minutes - full.train_minutes)
    half = S.estimate(unit, FIGURES, progress=lambda c: {"cogs": (3000, False)})
    assert half.train_minutes == pytest.approx(1000 * 0.05 / 60)
    assert "3,000 of 4,000 updates in the cache" in half.note
    beyond = S.estimate(unit, FIGURES, progress=lambda c: {"cogs": (4500, False)})  # past the stop
    assert beyond.train_minutes == pytest.approx(500 * 0.05 / 60)  # one validation interval
    assert S.estimate(unit, FIGURES, progress=lambda c: {}) == full
    steps = S.plan([unit], decode_only.minutes + 0.01, FIGURES, done=lambda u: False,
                   progress=lambda c: {"cogs": (4000, True)})
    assert [s.decision for s in steps] == ["run"]  # the decoding alone fits


def test_cached_progress_reads_the_checkpoint_of_this_machine(tmp_path, monkeypatch):
    from compsem.cogs.seq2seq import experiment, trainer

    monkeypatch.setattr(experiment, "checkpoint_dir", lambda config: tmp_path)
    config = make_config("transformer", seed=1)
    assert S.cached_progress(config) == {}
    trainer._save(tmp_path / "last.pt", {"state": {"step": 700, "done": True,
                                                   "stop_reason": "time limit"}})
    assert S.cached_progress(config) == {"cogs": (700, False)}  # cut by a budget: resumes
    trainer._save(tmp_path / "last.pt", {"state": {"step": 4000, "done": True,
                                                   "stop_reason": "early stopping"}})
    assert S.cached_progress(config) == {"cogs": (4000, True)}
    (tmp_path / "last.pt.sha256").write_text("0" * 64 + "\n")  # mid-write, or damaged
    assert S.cached_progress(config) == {}


class StoppableProcess(FakeProcess):
    def __init__(self, now, minutes, code=0):
        super().__init__(now, minutes, code)
        self.stopped = False

    def poll(self):
        return -15 if self.stopped else super().poll()

    def terminate(self):
        self.stopped = True

    def wait(self, timeout=None):
        return -15


def test_a_command_shorter_than_the_window_cuts_training_and_stops_what_runs_at_its_end():
    """``command_minutes``: the training budget ends in time for a sample decoding before the
    command ends; what still runs at its end is stopped; a trained unit whose decoding does not
    fit the command is not started."""
    unit = _unit()
    each = S.estimate(unit, FIGURES)
    decode = each.minutes - each.train_minutes - S.STARTUP_SECONDS / 60
    now, started = [0.0], []

    def launch(argv):
        started.append(StoppableProcess(now, 60))  # runs past the command's end
        started[-1].argv = argv
        return started[-1]

    def pause(seconds):
        now[0] += seconds

    command = each.minutes - 1.0  # the whole run does not fit in one command
    problems = S.run_plan([S.Step(unit, each, "run")], 30, clock=lambda: now[0], launch=launch,
                          pause=pause, command_minutes=command)
    budget = float(started[0].argv[started[0].argv.index("--train-minutes") + 1])
    sample = decode * S.SAMPLE_SENTENCES / S.FULL_SENTENCES
    assert budget == pytest.approx(command - S.STARTUP_SECONDS / 60 - sample, abs=0.01)
    assert problems == 1 and started[0].stopped  # stopped at the command's end
    assert now[0] == pytest.approx(60 * command, abs=S.POLL_SECONDS)
    trained = S.estimate(unit, FIGURES, progress=lambda c: {"cogs": (4000, True)})
    started.clear()
    problems = S.run_plan([S.Step(unit, trained, "run")], 30, clock=lambda: [0.0][0],
                          launch=launch, pause=pause, command_minutes=trained.minutes - 0.1)
    assert problems == 1 and not started  # its decoding alone does not fit this command


def test_a_watched_unit_is_stopped_once_trained_when_its_decoding_no_longer_fits():
    unit = _unit()
    each = S.estimate(unit, FIGURES)
    decode = each.minutes - each.train_minutes - S.STARTUP_SECONDS / 60
    now, started, finished_at = [0.0], [], 60 * (S.STARTUP_SECONDS / 60 + each.train_minutes)

    def launch(argv):
        started.append(StoppableProcess(now, 60))
        return started[-1]

    def pause(seconds):
        now[0] += seconds

    def progress(config):
        return {"cogs": (4000, True) if now[0] >= finished_at else (1000, False)}

    command = each.minutes - decode / 2  # trained in time, decoded only halfway
    problems = S.run_plan([S.Step(unit, each, "run")], 30, clock=lambda: now[0], launch=launch,
                          pause=pause, command_minutes=command, progress=progress)
    assert problems == 1 and started[0].stopped
    assert finished_at <= now[0] <= finished_at + S.WATCH_SECONDS + S.POLL_SECONDS  # at once


def test_an_interrupted_plan_stops_its_runs():
    """SIGTERM or Ctrl-C while runs go on (a command's time limit): they are stopped, not left to
    train on behind the next command."""
    unit = _unit()
    each = S.estimate(unit, FIGURES)
    now, started = [0.0], []

    def launch(argv):
        started.append(StoppableProcess(now, 60))
        return started[-1]

    def pause(seconds):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        S.run_plan([S.Step(unit, each, "run")], 30, clock=lambda: now[0], launch=launch,
                   pause=pause)
    assert started[0].stopped
    with pytest.raises(SystemExit) as exit_:
        S._exit_on_sigterm(S.signal.SIGTERM, None)
    assert exit_.value.code == 143


def test_stop_ends_a_real_process():
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    S._stop(process, grace=5)
    assert process.poll() is not None


def _chapter5(objective="gloss", seed=1):
    from compsem.cogs.seq2seq import auxiliary_train

    argv = ["--model", "transformer", "--objective", objective, "--seed", str(seed), "--no-fuse"]
    (config,) = auxiliary_train.configurations(auxiliary_train.parse_args(argv))
    return S.Unit(f"chapter 5 {objective}", "auxiliary", tuple(argv), (config,))


def test_a_chapter5_run_adds_its_auxiliary_stage_measured_guessed_or_held():
    gloss, baseline = _chapter5(), _chapter5("none")
    probe = S.BENCH_SECONDS_PER_UPDATE["transformer:chapter5"]  # Chapter 5's own speed
    base = S.estimate(baseline, FIGURES)
    assert "gloss" not in base.note and base.train_minutes == pytest.approx(4000 * probe / 60)
    assert "4,000 updates (as Chapter 4's, a guess)" in base.note and "(benchmark)" in base.note
    assert "decoding 120 s (as Chapter 4's, a guess)" in base.note and base.bound
    guessed = S.estimate(gloss, FIGURES)  # no stage measured: the COGS stage's 4,000, a guess
    assert guessed.train_minutes == pytest.approx(8000 * probe / 60) and guessed.bound
    assert "4,000 gloss (as the COGS stage, a guess)" in guessed.note
    measured = S.Measured({"transformer": 0.05, "transformer:chapter5": 0.08}, {("transformer", 1): 4000},
                          {("transformer", "beam"): 120.0}, {}, {},
                          {("transformer", "gloss"): 6500})
    assert S.estimate(gloss, measured).train_minutes == pytest.approx(10500 * 0.08 / 60)
    given = S.estimate(gloss, measured, speeds={"transformer": 0.01, "transformer:chapter5": 0.07})
    assert given.train_minutes == pytest.approx(10500 * 0.07 / 60)  # Chapter 4's speed not used
    held = S.estimate(gloss, FIGURES, progress=lambda c: {"auxiliary": (5000, True),
                                                           "cogs": (1000, False)})
    assert held.train_minutes == pytest.approx(3000 * probe / 60)  # the COGS stage's rest only
    assert "finished in the cache" in held.note and "1,000 of 4,000 updates" in held.note
    del S.BENCH_SECONDS_PER_UPDATE["transformer:chapter5"]  # restored by the fixture
    fallback = S.estimate(baseline, FIGURES)
    assert fallback.train_minutes == pytest.approx(4000 * 0.05 / 60)
    assert "(measured, as Chapter 4's, a guess)" in fallback.note
    # Chapter 5's runs are measured apart from Chapter 4's: speed (both stages), stop, decoding
    pairs = [(gloss.configs[0], {**_metrics(3000, 300.0, decode=200.0), "aux_steps": 6500,
                                 "aux_train_seconds": 780.0, "aux_stop_reason": "early stopping"}),
             (make_config("transformer", seed=1), _metrics(4000, 100.0, decode=90.0))]
    figures = S.measured(pairs)
    assert figures.auxiliary_updates == {("transformer", "gloss"): 6500}
    assert figures.seconds_per_update == {"transformer": pytest.approx(0.025),
                                          "transformer:chapter5": pytest.approx((0.1 + 0.12) / 2)}
    assert figures.updates == {("transformer:chapter5", 1): 3000, ("transformer", 1): 4000}
    assert figures.decode_seconds == {("transformer:chapter5", "beam"): 200.0, ("transformer", "beam"): 90.0}
    own = S.estimate(baseline, figures)
    assert not own.bound and own.train_minutes == pytest.approx(3000 * 0.11 / 60)
    assert "3,000 updates x 0.110 s (measured) + decoding 200 s" in own.note


def test_cached_progress_reads_both_stages_of_a_chapter5_run(tmp_path, monkeypatch):
    from compsem.cogs.seq2seq import trainer, two_stage
    from compsem.cogs.seq2seq.auxiliary_config import stage_one_config
    from compsem.cogs.seq2seq.config import training_hash

    monkeypatch.setattr(two_stage, "checkpoint_root", lambda where=None: tmp_path)
    (config,) = _chapter5().configs
    assert S.cached_progress(config) == {}
    first = tmp_path / "auxiliary" / training_hash(stage_one_config(config))
    first.mkdir(parents=True)
    trainer._save(first / "last.pt", {"state": {"step": 5000, "done": True,
                                                "stop_reason": "early stopping"}})
    second = tmp_path / "cogs" / training_hash(config)
    second.mkdir(parents=True)
    trainer._save(second / "last.pt", {"state": {"step": 3500, "start_step": 2500, "done": False,
                                                 "stop_reason": ""}})
    assert S.cached_progress(config) == {"auxiliary": (5000, True), "cogs": (1000, False)}
    assert not S._finished(S.cached_progress(config))


def test_the_command_knows_no_window_length_unless_given_one(capsys, monkeypatch):
    """No whole-window length is built in: without --window (or with 0) a unit that does not fit
    the minutes left is only "does not fit"; with --window 30, one estimated longer is marked as
    never fitting. Every unit of the runbook counts as open here, whatever is committed."""
    monkeypatch.setattr(S, "is_done", lambda unit: False)
    monkeypatch.setattr(S, "cached_progress", lambda config: {})
    assert S.main(["--minutes", "1", "--window", "0"]) == 0
    assert "longer than a window" not in capsys.readouterr().out
    assert S.main(["--minutes", "1"]) == 0
    plain = capsys.readouterr().out
    assert "does not fit" in plain and "longer than a window" not in plain
    assert S.main(["--minutes", "1", "--window", "30"]) == 0
    assert "longer than a window" in capsys.readouterr().out
