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


def student_t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with `df` (a whole number >= 1) degrees of freedom, exactly: the finite sums of
    Abramowitz and Stegun 26.7.3 and 26.7.4 in the angle atan(t / sqrt(df))."""
    theta = math.atan(abs(t) / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:
        term = total = math.cos(theta) if df > 1 else 0.0
        for k in range(3, df - 1, 2):  # 1 + 2/3 cos^2 + (2*4)/(3*5) cos^4 + ..., times sin and cos
            term *= (k - 1) / k * c2
            total += term
        within = 2 / math.pi * (theta + s * total)  # P(|T| <= |t|)
    else:
        term = total = 1.0
        for k in range(2, df - 1, 2):  # 1 + 1/2 cos^2 + (1*3)/(2*4) cos^4 + ...
            term *= (k - 1) / k * c2
            total += term
        within = s * total
    return 0.5 + math.copysign(within / 2, t)


def t_quantile(p: float, df: int) -> float:
    """The t with P(T <= t) = p (0.5 <= p < 1) for Student's t with `df` degrees of freedom (bisection on
    student_t_cdf; past 1,000 degrees of freedom the normal's, which differs by less than 0.01 at p = 0.9999)."""
    z = NormalDist().inv_cdf(p)
    if df > 1000:
        return z
    low, high = z, z + 1.0
    while student_t_cdf(high, df) < p:
        low, high = high, high * 2
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if student_t_cdf(mid, df) < p else (low, mid)
    return (low + high) / 2


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
