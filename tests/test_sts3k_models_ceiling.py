"""The sts3k-models chapter's noise ceiling and paired comparisons (compsem.sts.table9)."""

from __future__ import annotations

import numpy as np
import pytest

from compsem.sts import table9

pytestmark = pytest.mark.needs_data


def test_noise_ceiling_is_the_split_half_reliability():
    ceiling = table9.noise_ceiling(n_splits=50, seed=0)
    assert list(ceiling.index) == ["STS3k-all", "STS3k-non", "STS3k-adv"]
    # §5.1: .953 all, .950 non, .940 adv; the spread over seeds is about 0.001 at 50 splits
    np.testing.assert_allclose(ceiling["R"], [0.953, 0.950, 0.940], atol=0.003)
    assert (ceiling["low"] < ceiling["R"]).all() and (ceiling["R"] < ceiling["high"]).all()
    assert ceiling["n_pairs"].astype(int).tolist() == [2790, 1054, 1736]


def test_every_published_sts3k_cell_below_the_ceiling():
    ceiling = table9.noise_ceiling(n_splits=20, seed=1)["R"]
    published = table9.published_table9()
    for column in table9.STS3K_COLUMNS:
        assert published[column].max() < ceiling[column]
    assert published["STS3k-adv"].max() < ceiling["STS3k-adv"] - 0.25  # VerbNet-CN .647 vs .940


def test_paired_published_defsent_sentbert():
    table = table9.paired_published("DefSent", "SentBERT", ["STS3k-adv", "STS3k-non"], n_resamples=200)
    adv, non = table.loc["STS3k-adv"], table.loc["STS3k-non"]
    assert adv["rho_a"] == pytest.approx(0.494, abs=5e-4) and adv["rho_b"] == pytest.approx(0.145, abs=5e-4)
    assert adv["difference"] == pytest.approx(adv["rho_a"] - adv["rho_b"])
    assert adv["ci_low"] < adv["difference"] < adv["ci_high"] and adv["ci_low"] > 0.2
    assert non["rho_a"] == pytest.approx(0.862, abs=5e-4)  # the CLS file throughout, not the printed .868
    assert non["ci_low"] < 0 < non["ci_high"]
    assert int(adv["n"]) == 1664 and int(non["n"]) == 1065
    assert table["method"].tolist() == ["BCa", "BCa"] and table["difference"].dtype == float


def test_paired_published_takes_the_percentile_interval_on_sick():
    """SICK's 9,840 pairs are past BCa's jackknife (an n x n array): the percentile bootstrap."""
    sick = table9.paired_published("DefSent", "SentBERT", ["SICK"], n_resamples=100).loc["SICK"]
    assert sick["method"] == "percentile" and int(sick["n"]) > table9.BCA_MAX_PAIRS
    assert sick["ci_low"] < sick["difference"] < sick["ci_high"]
    assert sick["ci_high"] - sick["ci_low"] < 0.05  # thousands of pairs: a narrow interval


def test_paired_published_needs_files():
    with pytest.raises(ValueError, match="no published similarity file"):
        table9.paired_published("VerbNet-CN", "SentBERT", ["SICK"], n_resamples=50)
