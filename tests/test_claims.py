"""The claims ledger (data/claims/) against the committed executed notebooks, and the Findings.

Every claim must give the verdict its ledger entry expects on the numbers the committed chapters
glue: a change that flips one fails here until the ledger (and the chapter's text) say why. The
rule language is parsed, never evaluated by Python: the tests below feed it code and expect a
refusal.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import jupytext
import nbformat
import pytest

from compsem import claims, findings_page, parameters, paths, report

MINIMUM_CLAIMS = {"sts3k": 10, "modifiers": 6, "probing": 6, "cogs": 8}
GLUED = findings_page.glued_by_chapter()
ALL = claims.all_claims()
EXPECTED_VERDICT = {"holds": "holds", "fails": "fails", "inconclusive": "inconclusive",
                    "untestable": "not testable here"}
PAPERS_DIR = os.environ.get("COMPSEM_PAPERS_DIR", "").strip()


def test_every_study_has_its_ledger():
    for study, minimum in MINIMUM_CLAIMS.items():
        assert len(claims.load(study)) >= minimum, f"data/claims/{study}.yaml: fewer than {minimum}"


TESTABLE = [c for c in ALL if c.expect != "untestable"]
UNTESTABLE = [c for c in ALL if c.expect == "untestable"]


@pytest.mark.parametrize("claim", TESTABLE, ids=[f"{c.study}:{c.id}" for c in TESTABLE])
def test_claim_gives_its_expected_verdict(claim):
    values = GLUED.get(claim.chapter, {})
    missing = claims.missing_keys(claim, values)
    assert not missing, f"{claim.chapter} does not glue {missing} (claim {claim.id})"
    assert claims.verdict(claim, values) == EXPECTED_VERDICT[claim.expect], (
        f"{claim.study}:{claim.id} (holds_if {claim.holds_if}; fails_if {claim.fails_if}) on "
        f"{claim.chapter}: "
        f"{claims.ours_text(claim, values)}"
    )


@pytest.mark.parametrize("claim", ALL, ids=[f"{c.study}:{c.id}" for c in ALL])
def test_a_claims_text_reads_only_keys_its_chapter_glues(claim):
    """The ``ours`` and ``reason`` templates are filled from the chapter's glued values on the
    Findings page; a key the chapter does not glue would show as ``[key: not computed]``."""
    values = GLUED.get(claim.chapter, {})
    for field in ("ours", "reason"):
        text = claims.fill(getattr(claim, field) or "", values, f"{claim.study}:{claim.id}", field)
        assert not re.findall(r"\[(\w+)\?\]", text), f"{claim.id}, {field}: {text}"


@pytest.mark.parametrize("claim", UNTESTABLE, ids=[f"{c.study}:{c.id}" for c in UNTESTABLE])
def test_an_untestable_claim_waits_for_runs_still_missing(claim):
    """An untestable claim has no rules and says why. One that counts the runs it waits for
    (``{<x>_done}`` of ``{<x>_total}`` in its reason) stops being untestable once they are all
    committed: then this test fails until the claim gets its rules."""
    assert not claim.rules and claim.reason
    values = GLUED.get(claim.chapter, {})
    for done in re.findall(r"\{(\w+)_done[:}]", claim.reason):
        assert values[f"{done}_done"] < values[f"{done}_total"], (
            f"{claim.id}: all {values[f'{done}_total']:.0f} runs it waits for are committed; "
            "give it its rules")


@pytest.mark.parametrize("claim", ALL, ids=[f"{c.study}:{c.id}" for c in ALL])
def test_claim_links_to_a_section_of_its_chapter(claim):
    source = jupytext.read(paths.NOTEBOOKS_DIR / f"{claim.chapter}.py")
    headings = [line.lstrip("#").strip() for cell in source.cells if cell.cell_type == "markdown"
                for line in cell.source.splitlines() if line.startswith("#")]
    assert claim.section in headings, f"{claim.id}: no heading {claim.section!r} in {claim.chapter}"


@pytest.mark.parametrize("chapter", parameters.chapters())
def test_chapter_opens_with_its_findings(chapter):
    source = jupytext.read(paths.NOTEBOOKS_DIR / f"{chapter}.py")
    markdown = [c.source for c in source.cells if c.cell_type == "markdown"]
    assert markdown[0].lstrip().startswith("# "), "the first cell is the title and question"
    assert markdown[1].lstrip().startswith("## Findings"), "Findings must follow the question"
    assert "findings_table" in markdown[1] and "findings_headline" in markdown[1]
    executed = nbformat.read(paths.BOOK_DIR / f"{chapter}.ipynb", as_version=4)
    glued = {o.get("metadata", {}).get("scrapbook", {}).get("name")
             for cell in executed.cells for o in cell.get("outputs", [])}
    assert {"findings_table", "findings_headline"} <= glued


@pytest.mark.parametrize("chapter", parameters.chapters())
def test_every_figure_has_a_caption(chapter):
    executed = nbformat.read(paths.BOOK_DIR / f"{chapter}.ipynb", as_version=4)
    for cell in executed.cells:
        figures = sum("image/png" in o.get("data", {}) for o in cell.get("outputs", []))
        if not figures:
            continue
        caption = cell.metadata.get("mystnb", {}).get("figure", {})
        shown = [o for o in cell.get("outputs", []) if o.get("output_type") == "execute_result" or (
            o.get("output_type") == "display_data"
            and not any(k.startswith("application/papermill.record") for k in o.get("data", {})))]
        assert figures == 1 and len(shown) == 1, (
            f"{chapter}: a captioned cell must show one figure and nothing else (the caption and "
            f"its name would be repeated)\n{cell.source[:200]}")
        assert caption.get("caption") and caption.get("name", "").startswith("fig-"), (
            f"{chapter}: a figure without a caption\n{cell.source[:200]}")


def test_findings_page_is_built_from_the_committed_notebooks():
    assert findings_page.PAGE.exists(), "run `compsem findings`"
    assert findings_page.PAGE.read_text() == findings_page.render(GLUED), (
        "book/findings.md is out of date: run `compsem findings`")


def test_readme_tells_what_the_book_finds_from_the_committed_notebooks():
    readme = findings_page.README.read_text()
    block = findings_page.readme_findings(GLUED)
    assert findings_page.with_readme_findings(readme, block) == readme, (
        "README's findings are out of date: run `compsem findings`")
    assert "| study | claims |" in block and block.count("\n- ") == sum(
        row["outcome"] == "contradicted" for rows in findings_page.rows_by_study(GLUED).values()
        for row in rows)
    from compsem.errors import CompsemError

    with pytest.raises(CompsemError, match="findings block needs the lines"):
        findings_page.with_readme_findings(readme.replace(findings_page.README_END, ""), block)


def test_findings_page_opens_with_the_counts_and_the_contradictions():
    """One screen first: the counts by class per study, then the contradictions of the papers,
    then the full table of each study."""
    page = findings_page.render(GLUED)
    counts = page.index("| study | claims |")
    contradictions = page.index("## Contradictions of the papers")
    first_study = page.index("## " + findings_page.STUDY_TITLES["sts3k"])
    assert counts < contradictions < first_study
    for name in ("reproduced", "not testable"):
        assert name in page[counts:contradictions]


def test_findings_list_errata_apart_from_contradicted_results(tmp_path, monkeypatch):
    """A contradicted reproduction says what it contradicts (``contradiction``): the findings
    page and README list the errata (printed numbers the papers' own data do not give) apart from
    the results; a reproduction expected to fail without it, or a claim that cannot contradict
    with it, is a ledger error."""
    page = findings_page.render(GLUED)
    results, errata = page.index("### Results of the papers"), page.index("### Errata")
    first_study = page.index("## " + findings_page.STUDY_TITLES["sts3k"])
    rows = [row for rows in findings_page.rows_by_study(GLUED).values() for row in rows
            if row["outcome"] == "contradicted"]
    assert {row["contradiction"] for row in rows} == {"erratum", "result"}
    for row in rows:
        at = page.index(html.escape(row["claim"]), results)
        assert (results < at < errata) if row["contradiction"] == "result" else (errata < at < first_study)
    error = _ledger(tmp_path, monkeypatch, "c", [{"expect": "fails", "reason": "r"}])
    assert "field 'contradiction'" in str(error) and "erratum" in str(error)
    error = _ledger(tmp_path, monkeypatch, "d", [{"contradiction": "erratum"}])
    assert "only a reproduction expected to fail" in str(error)


def test_findings_headline_counts_claims_and_targets():
    rows = [{"outcome": "reproduced"}, {"outcome": "contradicted"},
            {"outcome": "not testable"}]
    targets = report.load_targets("sts3k")
    key = next(k for k, t in targets.items() if not t.get("status"))
    values = {key: targets[key]["paper"]}
    headline = report.findings_headline(rows, values)
    assert headline.startswith("3 claims: 1 reproduced, 1 contradicted, 1 not testable")
    assert ("1 of 1 published numbers compared (the paper's or its authors' files) are within tolerance "
            "(largest against its tolerance, of those expected to match" in headline)


# ---------------------------------------------------------------- verdicts, evidence, texts


@pytest.mark.parametrize("values, verdict", [
    ({"lo": 0.1, "hi": 0.3}, "holds"), ({"lo": -0.3, "hi": -0.1}, "fails"),
    ({"lo": -0.1, "hi": 0.3}, "inconclusive"),
])
def test_a_difference_decided_by_its_interval_has_three_verdicts(values, verdict):
    claim = _claim("lo > 0", fails_if="hi < 0")
    assert claims.verdict(claim, values) == verdict


def test_rules_that_overlap_are_reported_not_decided():
    (row,) = claims.table([_claim("a > 0", fails_if="b > 0")], {"c": VALUES})
    assert row["verdict"] == "not evaluated" and "both true" in row["note"]


@pytest.mark.parametrize("evidence, verdict, outcome", [
    ("reproduction", "holds", "reproduced"), ("reproduction", "fails", "contradicted"),
    ("reproduction", "inconclusive", "inconclusive"), ("substitute", "fails", "substitute only"),
    ("substitute", "holds", "substitute only"), ("substitute", "inconclusive", "substitute only"),
    ("extension", "fails", "extension"), ("extension", "inconclusive", "extension"),
    ("substitute", "not testable here", "not testable"),
    ("reproduction", "not evaluated", "not evaluated"),
])
def test_a_substitute_or_an_extension_never_contradicts_the_paper(evidence, verdict, outcome):
    assert claims.outcome(_claim(evidence=evidence), verdict) == outcome


def test_the_paper_number_comes_from_its_target():
    key, value = next(iter(sorted(claims.targets.paper_values().items())))
    text = claims.fill(f"paper {{paper:{key}:.4f}}, ours {{a:.1f}}", VALUES, "t", "reason")
    assert text == f"paper {value:.4f}, ours 0.5"


@pytest.mark.parametrize("text, numbers", [
    ("ours {a:.3f} against {paper:k}", []),
    ("Table 9, §4.5.5.3, Figure 4-3, Eq. 2, Chapter 5 and Tables 4 and 5 (2018)", []),
    ("STS3k, GS2011, MiniLM-L6, bf16 and GloVe-50d are names", []),
    ("about .64 over 5 seeds, 95% of 2,000 shuffles", [".64", "5", "95%", "2,000"]),
])
def test_hand_typed_numbers_are_found(text, numbers):
    assert claims.hand_typed_numbers(text) == numbers


@pytest.mark.parametrize("claim", ALL, ids=[f"{c.study}:{c.id}" for c in ALL])
def test_no_number_is_typed_by_hand_in_a_reason_or_ours(claim):
    """Ours come from glued keys, the paper's from data/targets (``{paper:key}``): a number typed
    into a reason goes stale when the chapter is re-executed."""
    typed = {f: claims.hand_typed_numbers(getattr(claim, f) or "") for f in ("reason", "ours")}
    assert not any(typed.values()), f"{claim.study}:{claim.id}: typed by hand: {typed}"


_SCALED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([kM])(?!\w)")  # 9.5M, 12k


def _digits(number: str) -> int:
    """How many digits ``number`` is given to: every digit of a whole number (80 and 3,000 are
    exact counts), the significant ones of a decimal (.950: three, .7: one)."""
    digits = re.sub(r"[^0-9.]", "", number)
    return len(digits.replace(".", "").lstrip("0") if "." in digits else digits)


def _targets_quoted_as_typed(claim) -> list[tuple[str, list[str]]]:
    """The numbers typed into ``claim.paper`` that are the printed value of a target of the
    claim's study (its chapter's targets file and its study's): given to two digits or more (one
    digit, such as the '≈ .7' of an approximate statement, is too common to name a target), and
    not a bound, 0 or 1; ``9.5M`` and ``12k`` read as 9,500,000 and 12,000."""
    names = [n for n in (claim.chapter, claim.study) if (paths.TARGETS_DIR / f"{n}.json").exists()]
    printed = {k: t for name in names for k, t in claims.targets.load_targets(name).items()}
    plain = _SCALED.sub(" ", claim.paper)
    numbers = [(number, float(re.sub(r"[,%+]", "", number).replace("−", "-")))
               for number in claims.hand_typed_numbers(plain)]
    numbers += [(f"{m[1]}{m[2]}", float(m[1]) * {"k": 1e3, "M": 1e6}[m[2]])
                for m in _SCALED.finditer(re.sub(r"\{[^{}]*\}", " ", claim.paper))]
    found = []
    for number, value in numbers:
        keys = [k for k, t in printed.items() if float(t["paper"]) == value]
        if keys and _digits(number) >= 2 and value not in (0, 1, -1):
            found.append((number, keys))
    return found


@pytest.mark.parametrize("claim", ALL, ids=[f"{c.study}:{c.id}" for c in ALL])
def test_the_papers_side_reads_its_targets(claim):
    """A number of the paper that data/targets holds is written ``{paper:key}`` in the claim's
    ``paper`` field too, so that the Findings and the tables never show two versions of it."""
    typed = _targets_quoted_as_typed(claim)
    assert not typed, (f"{claim.study}:{claim.id}, field 'paper': {typed}: write each as "
                       "{paper:<key>:<format>}")


def test_a_typed_paper_number_with_a_target_is_found():
    claim = _claim(study="sts3k", chapter="sts3k-data", paper="mean .442, ≈ .7, at most 1.0, .4421")
    found = _targets_quoted_as_typed(claim)
    assert [number for number, _ in found] == [".442"] and "rating_mean" in found[0][1]
    claim = _claim(study="cogs", chapter="cogs-models", paper="9.5M and {paper:cogs_params_lstm}, 9.5 M")
    assert _targets_quoted_as_typed(claim) == [("9.5M", ["cogs_params_transformer"])]
    claim = _claim(study="cogs", chapter="cogs-data", paper="train 24,155 pairs, 5 seeds")
    assert _targets_quoted_as_typed(claim) == [("24,155", ["cogsdata_n_train"])]


def test_quotes_are_compared_after_normalising_layout():
    claim = _claim(study="sts3k", quote="compo-\nsition ... “double”")
    assert claims.normalise_text("compo-\n sition  ‘a’ – b") == "composition 'a' - b"
    assert claims._ELLIPSIS.split("one ... two…three") == ["one", "two", "three"]
    assert claim.quote


@pytest.mark.skipif(not PAPERS_DIR, reason="COMPSEM_PAPERS_DIR is not set: the quotes are not "
                    "checked against the paper texts (set it to a folder holding them, "
                    "named as compsem.claims.PAPER_TEXTS says)")
@pytest.mark.parametrize("claim", ALL, ids=[f"{c.study}:{c.id}" for c in ALL])
def test_every_quote_is_the_papers_words(claim):
    status, detail = claims.quote_check(claim, Path(PAPERS_DIR))
    if status == "unchecked":
        pytest.skip(f"{claim.id}: the text of {detail} is not in {PAPERS_DIR}")
    assert status == "verbatim", f"{claim.study}:{claim.id}: {detail!r} is not in the paper"


# ---------------------------------------------------------------- the rule language


VALUES = {"a": 0.5, "b": 0.3, "t_x_adv": 0.1, "t_y_adv": 0.2, "nan": float("nan")}


@pytest.mark.parametrize("rule, expected", [
    ("a > max('t_*_adv')", True),
    ("a < min('t_*_adv')", False),
    ("abs(a - b) <= 0.1", False),
    ("abs(a - b) <= 0.25", True),
    ("mean(a, b) < 0.45 < a", True),
    ("0.2 < b < 0.25", False),
    ("count(a > 0, b > 1, a > b) >= 2", True),
    ("not a < b", True),
    ("a > b or b > a", True),
    ("a / 2 - b * 2 + -1 < 0", True),
])
def test_rules_evaluate(rule, expected):
    assert claims.evaluate_rule(rule, VALUES) is expected


@pytest.mark.parametrize("rule", [
    "__import__('os').system('true')", "a.real > 0", "a == b", "[a][0] > 0", "f(a) > 0",
    "a if b else b", "(lambda: 1)() > 0", "a > b; b", "min(x=a) > 0", "True", "'x' > a",
    "abs() > 0",
])
def test_rules_outside_the_syntax_are_refused(rule):
    with pytest.raises(claims.ClaimError):
        claims.parse_rule(rule)
        claims.evaluate_rule(rule, VALUES)


def test_missing_quantities_are_named():
    claim = claims.Claim(study="t", id="x", chapter="c", section="s", claim="c", quote="q",
                         source="s", paper="p", evidence="reproduction", expect="holds",
                         holds_if="a > zz and b < max('q_*')", fails_if="otherwise")
    assert claims.verdict(claim, VALUES) == "not evaluated"
    assert claims.missing_keys(claim, VALUES) == ["zz", "q_*"]


def test_ours_template_accepts_plain_keys_only(tmp_path, monkeypatch):
    good = claims.Claim(study="t", id="x", chapter="c", section="s", claim="c", quote="q",
                        source="s", paper="p", evidence="reproduction", expect="holds",
                        holds_if="a > b", fails_if="otherwise", ours="{a:.2f} vs {b}")
    assert claims.ours_text(good, VALUES) == "0.50 vs 0.3"
    with pytest.raises(claims.ClaimError):
        claims._format_fields("{a.__class__}", "test")
    with pytest.raises(claims.ClaimError):
        claims._format_fields("{a[0]}", "test")


def test_reason_states_our_numbers_from_glued_values(tmp_path, monkeypatch):
    """A failing claim's reason is a template over glued keys like ``ours``: the note shows the
    re-executed numbers, and a reason field that is no plain key is refused when loading."""
    failing = claims.Claim(study="t", id="x", chapter="c", section="s", claim="c", quote="q",
                           source="s", paper="p", evidence="reproduction", expect="fails",
                           holds_if="a < b", fails_if="otherwise",
                           reason="ours is {a:.2f}, above {b}")
    (row,) = claims.table([failing], {"c": VALUES})
    assert row["verdict"] == "fails"
    assert row["note"] == "ours is 0.50, above 0.3"
    unexpected = claims.Claim(study="t", id="y", chapter="c", section="s", claim="c", quote="q",
                              source="s", paper="p", evidence="reproduction", expect="holds",
                              holds_if="a < b", fails_if="otherwise")
    (row,) = claims.table([unexpected], {"c": VALUES})  # fails without a reason (e.g. a smoke run)
    assert (row["verdict"], row["note"]) == ("fails", "this run's verdict differs from the book's (holds)")
    monkeypatch.setattr(claims, "CLAIMS_DIR", tmp_path)
    claims.load.cache_clear()
    import yaml

    entry = {"id": "bad-reason", "chapter": parameters.chapters()[0], "section": "s", "claim": "c",
             "quote": "q", "source": "s", "paper": "p", "evidence": "reproduction",
             "expect": "fails", "holds_if": "a < b", "fails_if": "otherwise",
             "reason": "see {a.__class__}"}
    (tmp_path / "r.yaml").write_text(yaml.safe_dump([entry]))
    with pytest.raises(claims.ClaimError, match="field 'reason'"):
        claims.load("r")
    claims.load.cache_clear()


def test_a_malformed_ledger_names_the_file_and_the_claim(tmp_path, monkeypatch):
    monkeypatch.setattr(claims, "CLAIMS_DIR", tmp_path)
    claims.load.cache_clear()
    entry = {"id": "bad-rule", "chapter": parameters.chapters()[0], "section": "s", "claim": "c",
             "quote": "q", "source": "s", "paper": "p", "evidence": "reproduction",
             "expect": "holds", "holds_if": "a == b", "fails_if": "otherwise"}
    import yaml

    (tmp_path / "x.yaml").write_text(yaml.safe_dump([entry]))
    with pytest.raises(claims.ClaimError, match=r"x.yaml, claim 'bad-rule'.*Eq"):
        claims.load("x")
    (tmp_path / "y.yaml").write_text(yaml.safe_dump([{**entry, "holds_if": None,
                                                       "expect": "fails"}]))
    with pytest.raises(claims.ClaimError, match="y.yaml"):
        claims.load("y")
    (tmp_path / "z.yaml").write_text("- !!python/object/apply:os.system ['true']\n")
    with pytest.raises(claims.ClaimError, match="not valid YAML"):
        claims.load("z")
    claims.load.cache_clear()


# ---------------------------------------------------------------- NaN, arithmetic and limits


def _claim(rule="a > b", fails_if="otherwise", **fields):
    """A claim of a test ledger (expect: holds), with ``fields`` replaced."""
    return claims.Claim(**{"study": "t", "id": "x", "chapter": "c", "section": "s", "claim": "c",
                           "quote": "q", "source": "s", "paper": "p", "evidence": "reproduction",
                           "expect": "holds", "holds_if": rule, "fails_if": fails_if, **fields})


def _ledger(tmp_path, monkeypatch, name, entries=None, text=None):
    """Write ``tmp_path/<name>.yaml`` (``entries`` dumped, or ``text`` as is) as the only ledger
    directory and return the ClaimError its loading raises."""
    import yaml

    monkeypatch.setattr(claims, "CLAIMS_DIR", tmp_path)
    claims.load.cache_clear()
    file = tmp_path / f"{name}.yaml"
    if text is None:
        text = yaml.safe_dump([{"id": "bad", "chapter": parameters.chapters()[0], "section": "s",
                                "claim": "c", "quote": "q", "source": "s", "paper": "p",
                                "evidence": "reproduction", "expect": "holds",
                                "holds_if": "a > b", "fails_if": "otherwise", **entry}
                               for entry in entries])
    if isinstance(text, bytes):
        file.write_bytes(text)
    else:
        file.write_text(text)
    try:
        with pytest.raises(claims.ClaimError) as caught:
            claims.load(name)
    finally:
        claims.load.cache_clear()
    message = str(caught.value)
    assert "\n" not in message and f"{name}.yaml" in message, message
    return message


@pytest.mark.parametrize("rule", [
    "not (nan > 1)", "nan > 0 or nan <= 0", "a > 0 or nan > 0", "nan > 0 and a > 0",
    "0 > 1 > nan", "count(a > 0, nan > 0) >= 1", "abs(nan) >= 0", "max('n_*') > 0",
    "max(a, nan) > 0",
])
def test_a_nan_operand_means_not_evaluated_whatever_the_operators(rule):
    """Case 4: a NaN reaching any operator or function, wherever it sits, leaves the claim not
    evaluated (never holds or fails), and the note names the key."""
    for values in ({**VALUES, "n_1": 1.0, "n_2": float("nan")},
                   {**VALUES, "n_1": float("nan"), "n_2": 1.0}):
        with pytest.raises(claims.NotEvaluated):
            claims.evaluate_rule(rule, values)
        (row,) = claims.table([_claim(rule)], {"c": values})
        assert row["verdict"] == "not evaluated"
        assert "is NaN" in row["note"] and ("nan" in row["note"] or "n_" in row["note"])


def test_a_nan_made_by_arithmetic_is_not_evaluated():
    values = {"big": float("inf"), "a": 1.0}
    (row,) = claims.table([_claim("big - big < a")], {"c": values})
    assert row["verdict"] == "not evaluated" and "big - big" in row["note"]


def test_division_by_zero_is_a_rule_defect_or_a_verdict():
    """Case 11: dividing by a constant zero is a defect of the rule (refused when parsing); dividing
    by a glued value that is zero in this run leaves the claim not evaluated, with the reason."""
    with pytest.raises(claims.ClaimError, match="division by zero"):
        claims.parse_rule("1 / 0 > 0")
    for rule in ("a / (1 - 1) > 0", "a / (1 / 0) > 0", "a / -0.0 > 0"):
        with pytest.raises(claims.ClaimError, match="division by zero"):
            claims.parse_rule(rule)
    (row,) = claims.table([_claim("a / z > 0")], {"c": {"a": 1.0, "z": 0.0}})
    assert row["verdict"] == "not evaluated" and "division by zero in 'a / z'" in row["note"]


@pytest.mark.parametrize("rule", [
    "count('rating_*') > 0", "abs('rating_*') > 0", "'x' > a", "a > 'x'", "abs(a, b) > 0",
    "mean('*') + 'x' > 0", "1e999 > a", "a * 1" + "0" * 400 + " > 0",
])
def test_a_rule_that_cannot_evaluate_is_refused_when_parsed(rule):
    """Case 11: patterns stand only inside min/max/mean, abs takes one argument, constants are
    finite numbers: all checked when the ledger is loaded, not when the page is built."""
    with pytest.raises(claims.ClaimError):
        claims.parse_rule(rule)


@pytest.mark.parametrize("rule", ["-" * 3000 + "a > 0", "-" * 100 + "a > 0",
                                  "a" + " + a" * 1000 + " > 0", "(" * 300 + "a" + ")" * 300])
def test_deep_or_long_rules_are_refused_with_a_message(rule):
    """Case 11: 3,000 nested unary minus was a RecursionError; rules are bounded in length and
    depth."""
    with pytest.raises(claims.ClaimError, match="rule"):
        claims.parse_rule(rule, "x.yaml, claim 'deep', field 'rule'")


@pytest.mark.parametrize("template, problem", [
    ("{a:.3q}", "format"), ("{a:>30000000}", "wide"), ("{a:.30000000f}", "wide"),
    ("{a:d}", "format"),
])
def test_bad_or_huge_format_specs_are_refused(tmp_path, monkeypatch, template, problem):
    """Case 11: a bad format spec was a traceback, ``{x:>30000000}`` a 30 MB page."""
    message = _ledger(tmp_path, monkeypatch, "o", [{"ours": template}])
    assert "claim 'bad'" in message and "field 'ours'" in message and problem in message
    message = _ledger(tmp_path, monkeypatch, "r", [{"expect": "fails", "reason": template}])
    assert "claim 'bad'" in message and "field 'reason'" in message
    with pytest.raises(claims.ClaimError, match=problem):
        claims.ours_text(_claim(ours=template), VALUES)


@pytest.mark.parametrize("entry, field", [
    ({"claim": ["a", "list"]}, "claim"), ({"holds_if": {"a": 1}}, "holds_if"),
    ({"id": ["x"]}, "id"), ({1: "x", 2: "y"}, "1"), ({"holds_if": "a ==== b"}, "holds_if"),
    ({"fails_if": "a ==== b"}, "fails_if"), ({"fails_if": None}, "fails_if"),
    ({"evidence": "hearsay"}, "evidence"), ({"paper": "{paper:no_such_target}"}, "paper"),
    ({"expect": "inconclusive"}, "reason"),
    ({"expect": "maybe"}, "expect"), ({"chapter": "no-such-chapter"}, "chapter"),
    ({"quote": "q" * 100_000}, "quote"),
])
def test_every_ledger_error_is_one_line_naming_file_claim_and_field(
        tmp_path, monkeypatch, entry, field):
    message = _ledger(tmp_path, monkeypatch, "m", [entry])
    assert "m.yaml, claim " in message and f"field '{field}'" in message, message


@pytest.mark.parametrize("text", [
    "- id: x\n  claim: [unclosed\n", "{}", "- just a string\n", b"- id: \xff\xfe\n",
    "- id: a\n  id: b\n", "- claim: " + "[" * 5000 + "]" * 5000 + "\n",
])
def test_a_malformed_ledger_file_is_one_line(tmp_path, monkeypatch, text):
    _ledger(tmp_path, monkeypatch, "f", text=text)


def test_yaml_aliases_are_refused_cheaply(tmp_path, monkeypatch):
    """Case 11: a YAML alias bomb took 16 s and 1.1 GB at 7 levels; aliases are refused."""
    import time

    message = _ledger(tmp_path, monkeypatch, "a", text="- &one {id: x}\n- *one\n")
    assert "alias" in message
    levels = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] + [
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    bomb = "- id: bomb\n" + "".join(f"  {line}\n" for line in levels) + "  claim: *a9\n"
    start = time.perf_counter()
    message = _ledger(tmp_path, monkeypatch, "b", text=bomb)
    assert "alias" in message and time.perf_counter() - start < 5


def test_an_unreadable_executed_notebook_names_the_file_and_the_fix(
        tmp_path, monkeypatch, capsys):
    """Case 11: ``compsem findings`` on a truncated notebook in book/ was a JSON traceback; it is
    a CompsemError naming the notebook and ``compsem run <chapter>`` (book/ itself is untouched:
    the notebooks are copies in a temporary folder that stands for it)."""
    from compsem.errors import CompsemError

    chapter = parameters.chapters()[0]
    text = (paths.BOOK_DIR / f"{chapter}.ipynb").read_text()
    (tmp_path / f"{chapter}.ipynb").write_text(text[: len(text) // 2])
    monkeypatch.setattr(paths, "BOOK_DIR", tmp_path)
    for book_dir in (tmp_path, None):  # None: the default, as `compsem findings` calls it
        with pytest.raises(CompsemError) as caught:
            findings_page.glued_by_chapter(book_dir)
        message = str(caught.value)
        assert f"{chapter}.ipynb" in message and f"compsem run {chapter}" in message
        assert "\n" not in message
    from compsem import cli

    assert cli.main(["findings", "--check"]) == 2  # reads the page, writes nothing
    err = capsys.readouterr().err
    assert f"compsem run {chapter}" in err and "Traceback" not in err
    (tmp_path / f"{chapter}.ipynb").write_text("[]")
    with pytest.raises(CompsemError, match=f"compsem run {chapter}"):
        findings_page.glued_by_chapter(tmp_path)


def test_fails_if_never_holds_or_stays_inconclusive():
    claim = _claim("a > b", fails_if=claims.NEVER)
    assert claims.judge(claim, {"a": 2.0, "b": 1.0}) == ("holds", "")
    assert claims.judge(claim, {"a": 0.0, "b": 1.0}) == ("inconclusive", "")  # never fails
    assert claim.rules == ["a > b"]  # "never" is no rule of its own


def test_holds_if_never_fails_or_stays_inconclusive():
    claim = _claim(claims.NEVER, fails_if="low_high < 0.995", expect="inconclusive")
    assert claims.judge(claim, {"low_high": 0.9}) == ("fails", "")
    assert claims.judge(claim, {"low_high": 1.0}) == ("inconclusive", "")  # never holds
    assert claim.rules == ["low_high < 0.995"]
    assert claims.judge(claim, {})[0] == "not evaluated"  # its fails_if still reads the values


def test_a_claim_that_cannot_hold_cannot_expect_to(tmp_path, monkeypatch):
    message = _ledger(tmp_path, monkeypatch, "never_holds",
                      [{"holds_if": claims.NEVER, "fails_if": "a < 1", "expect": "holds"}])
    assert "holds_if: never cannot hold" in message
    message = _ledger(tmp_path, monkeypatch, "never_both",
                      [{"holds_if": claims.NEVER, "fails_if": claims.NEVER, "expect": "inconclusive",
                        "reason": "r"}])
    assert "needs a fails_if rule of its own" in message


def test_a_claim_that_cannot_fail_cannot_expect_to(tmp_path, monkeypatch):
    message = _ledger(tmp_path, monkeypatch, "never",
                      [{"fails_if": claims.NEVER, "expect": "fails", "reason": "r"}])
    assert "fails_if: never cannot fail" in message


def test_a_verdict_unlike_the_books_does_not_show_the_books_reason():
    """A run with other parameters may decide a claim otherwise than the book: the reason written
    for the book's verdict would then contradict the table, so it is replaced by a note."""
    claim = _claim(expect="fails", reason="a is {a:.1f}, not above b")
    [row] = claims.table([claim], {"c": {"a": 2.0, "b": 1.0}})
    assert (row["verdict"], row["note"]) == (
        "holds", "this run's verdict differs from the book's (fails); the book's reason for its "
                 "verdict is not shown")
    [row] = claims.table([claim], {"c": {"a": 0.5, "b": 1.0}})
    assert (row["verdict"], row["note"]) == ("fails", "a is 0.5, not above b")
    [row] = claims.table([_claim(expect="fails", reason="d is {d:.1f}")], {"c": {"a": 0.5, "b": 1.0}})
    assert row["note"] == ("the book's reason for this verdict quotes numbers this run did not "
                           "compute; it is not shown")
    [row] = claims.table([_claim()], {"c": {"a": 0.5, "b": 1.0}})  # expected to hold, no reason
    assert row["note"] == "this run's verdict differs from the book's (holds)"


def test_a_claim_that_needs_more_units_than_the_run_has_is_inconclusive(tmp_path, monkeypatch):
    """``needs``: a run with too few units (one seed, where the rules' intervals must cover the
    seeds) gives *inconclusive*, with the reason, and its rules are not read; with enough units
    the rules decide as before. A NaN in ``needs`` leaves the claim not evaluated; an untestable
    claim has no ``needs``."""
    claim = _claim(needs="n_seeds >= 2")
    assert claim.rules == ["n_seeds >= 2", "a > b"]
    assert claims.judge(claim, {"n_seeds": 3.0, "a": 2.0, "b": 1.0}) == ("holds", "")
    assert claims.judge(claim, {"n_seeds": 3.0, "a": 0.0, "b": 1.0}) == ("fails", "")
    one_seed = {"n_seeds": 1.0, "a": 2.0, "b": 1.0}
    assert claims.judge(claim, one_seed) == (
        "inconclusive", "undecided by rule: the claim needs n_seeds >= 2, and this run has "
                        "n_seeds = 1")
    [row] = claims.table([claim], {"c": one_seed})
    assert row["note"] == ("undecided by rule: the claim needs n_seeds >= 2, and this run has "
                           "n_seeds = 1; this run's verdict differs from the book's (holds)")
    undecided = _claim(needs="n_seeds >= 2", expect="inconclusive", reason="over {n_seeds:.0f} seed")
    [row] = claims.table([undecided], {"c": one_seed})  # the unmet needs first, then the reason
    assert (row["verdict"], row["note"]) == ("inconclusive", claims.judge(claim, one_seed)[1] + "; over 1 seed")
    assert claims.judge(claim, {"n_seeds": float("nan"), "a": 2.0, "b": 1.0})[0] == "not evaluated"
    assert claims.judge(claim, {"a": 2.0, "b": 1.0}) == ("not evaluated", "not glued in this run: n_seeds")
    message = _ledger(tmp_path, monkeypatch, "needs_untestable",
                      [{"needs": "n >= 2", "holds_if": None, "fails_if": None,
                        "expect": "untestable", "reason": "r"}])
    assert "field 'needs': an untestable claim has no rules" in message
    assert "field 'needs'" in _ledger(tmp_path, monkeypatch, "needs_syntax", [{"needs": "n >>= 2"}])


def test_the_2016_probing_claims_over_seeds_need_two_seeds():
    """A 2016 probing interval from one seed is over one draw's test items
    (compsem.probing.experiment.cell_intervals), not over the draws of the sentences that the
    claims' sources read: every claim on the 2016 tasks needs two seeds."""
    reading_2016 = [claim.id for claim in claims.load("probing")
                    if any(key.startswith(("probe_t3_", "probe_prof_"))
                           for rule in claim.rules for key in claims.rule_keys(rule))]
    assert len(reading_2016) == 6
    assert all(claim.needs == "probe_n_seeds >= 2" for claim in claims.load("probing")
               if claim.id in reading_2016)


def test_an_unexpected_contradiction_is_listed_unclassified():
    """A reproduction that fails in a run without its ledger expecting it has no
    ``contradiction``: the README block lists it apart rather than among the results."""
    rows = [{"outcome": "contradicted", "contradiction": "result", "claim": "R", "chapter": "c", "link": "c.html#r"},
            {"outcome": "contradicted", "contradiction": "erratum", "claim": "E", "chapter": "c", "link": "c.html#e"},
            {"outcome": "reproduced", "contradiction": "unclassified", "claim": "H", "chapter": "c", "link": "c.html#h"}]
    block = findings_page._readme_block({"sts3k": rows})
    assert "not yet classified" not in block and "- H " not in block
    rows.append({"outcome": "contradicted", "contradiction": "unclassified", "claim": "U", "chapter": "c",
                 "link": "c.html#u"})
    block = findings_page._readme_block({"sts3k": rows})
    assert block.index("- R ") < block.index("- E ") < block.index("not yet classified") < block.index("- U ")
