import math

import pytest

from core import stats


def test_wilson_interval_matches_the_textbook_value():
    low, high = stats.wilson_interval(81, 263)  # Wilson (1927) style worked example
    assert low == pytest.approx(0.2553, abs=1e-3)
    assert high == pytest.approx(0.3662, abs=1e-3)


def test_wilson_interval_stays_inside_zero_and_one_at_the_extremes():
    low, high = stats.wilson_interval(0, 10)
    assert 0.0 <= low < 1e-12 and high == pytest.approx(0.2775, abs=1e-3)
    low, high = stats.wilson_interval(10, 10)
    assert 1 - 1e-12 < high <= 1.0 and low == pytest.approx(0.7225, abs=1e-3)


def test_mean_interval_narrows_with_more_samples():
    few = stats.mean_interval([4, 6] * 10)
    many = stats.mean_interval([4, 6] * 1000)
    assert few[0] == many[0] == 5
    assert (few[2] - few[1]) > (many[2] - many[1]) > 0


def test_median_interval_brackets_the_median():
    values = list(range(1, 102))
    median, low, high = stats.median_interval(values)
    assert median == 51
    assert low < 51 < high
    assert (low, high) == (41, 61)


def test_empty_samples_give_nan_not_an_error():
    assert all(math.isnan(v) for v in stats.mean_interval([]))
    assert stats.histogram([]) == []


def test_histogram_fills_gaps_with_zero():
    assert stats.histogram([3, 5, 5]) == [(3, 1), (4, 0), (5, 2)]


def test_cumulative_share_counts_trials_that_never_reached_the_value():
    curve = stats.cumulative_share([2, 2, 3], total=4, upto=4)
    assert curve == [(1, 0.0), (2, 0.5), (3, 0.75), (4, 0.75)]


@pytest.mark.parametrize("p, df, table", [
    (0.975, 1, 12.706), (0.975, 2, 4.303), (0.975, 3, 3.182), (0.975, 7, 2.365), (0.975, 30, 2.042),
    (0.99, 3, 4.541), (0.995, 4, 4.604), (0.999, 5, 5.893), (0.9995, 3, 12.924), (0.975, 120, 1.980),
])
def test_t_quantile_matches_the_tables(p, df, table):
    assert stats.t_quantile(p, df) == pytest.approx(table, abs=1e-3)


def test_the_t_distribution_is_symmetric_about_zero():
    assert stats.student_t_cdf(0, 5) == 0.5
    assert stats.student_t_cdf(-2.015, 5) == pytest.approx(1 - stats.student_t_cdf(2.015, 5)) == pytest.approx(0.05,
                                                                                                             abs=1e-4)
