"""Every bootstrap over sentence pairs that a chapter calls resamples the clusters of pairs that
share a sentence (`compsem.data.shared_sentences`): a call without ``clusters=`` would silently
fall back to resampling pairs one by one, as if pairs that share a sentence were independent."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

#: Library functions whose ``clusters`` argument defaults to the pair bootstrap.
TAKE_CLUSTERS = {
    "adv_spearman_intervals", "drop_intervals", "parser_gaps", "beta_sensitivity", "paired_comparisons",
    "category_intervals", "relative_mean_draws", "weighted_within_draws", "within_category_spearman",
    "pairs_and_seeds_intervals", "transfer_gaps", "equivalence_differences", "published_random_values",
    "bootstrap_spearman", "bootstrap_difference", "bootstrap_spearman_levels", "bootstrap_difference_levels",
    "spearman_interval", "spearman_interval_levels", "paired_spearman_difference",
    "paired_spearman_difference_levels", "independent_spearman_difference", "subadditivity_gaps",
    "subadditivity_gap_values", "paired_difference",
}

CHAPTERS = sorted(p for p in NOTEBOOKS.glob("*.py") if p.stem.startswith("sts3k-") or p.stem == "synthesis")


def _calls_without_clusters(path: Path) -> list[str]:
    missing = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        owner = getattr(getattr(node.func, "value", None), "id", None)
        plot = owner == "figures"  # figures.beta_sensitivity draws the table, it resamples nothing
        if name in TAKE_CLUSTERS and not plot and not any(k.arg in ("clusters", "clusters1") for k in node.keywords):
            missing.append(f"{path.name}:{node.lineno} {name}")
    return missing


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapters_pass_clusters_to_every_pair_bootstrap(path):
    assert _calls_without_clusters(path) == []


def test_the_scan_finds_a_call_without_clusters(tmp_path):
    chapter = tmp_path / "sts3k-example.py"
    chapter.write_text("x = C.adv_spearman_intervals(series, human, mask, n_resamples=10)\n"
                       "y = C.drop_intervals(series, human, non, adv, clusters=clusters)\n", encoding="utf-8")
    assert _calls_without_clusters(chapter) == ["sts3k-example.py:1 adv_spearman_intervals"]
