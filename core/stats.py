"""Summary statistics for simulation reports: pure functions over plain numbers."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound at 0 and at n, unlike the normal one)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its 95% confidence interval (normal approximation: our samples are large)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def median_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Median and a distribution-free 95% interval from order statistics (binomial ranks)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    ordered = sorted(values)
    median = (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
    half = z * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half))
    high = min(n - 1, math.ceil(n / 2 + half) - 1)
    return (median, ordered[low], ordered[high])


def histogram(values: Iterable[int]) -> list[tuple[int, int]]:
    """Counts per integer value, every value from the smallest to the largest (gaps as zero)."""
    counts = Counter(values)
    if not counts:
        return []
    return [(v, counts.get(v, 0)) for v in range(min(counts), max(counts) + 1)]


def cumulative_share(values: Iterable[int], total: int, upto: int) -> list[tuple[int, float]]:
    """Share of `total` trials whose value is <= n, for n = 1..upto (e.g. won by turn n)."""
    counts = Counter(values)
    running, curve = 0, []
    for n in range(1, upto + 1):
        running += counts.get(n, 0)
        curve.append((n, running / total if total else 0.0))
    return curve
