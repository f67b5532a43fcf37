"""Comparing exact odds with samples: a chi-square goodness-of-fit test, in the standard library.

Used by the tests (seeded engine runs against the exact distribution) and by
`benchmarks/bench_odds.py` (a 100,000-sample simulation of the engine against the exact query),
so both say "equal within sampling error" the same way.
"""
from __future__ import annotations

import math
from collections import Counter


def chi2_sf(x: float, k: int) -> float:
    """Survival function of the chi-square distribution: Q(k/2, x/2), the regularized
    upper incomplete gamma function (series below a+1, continued fraction above)."""
    a, z = k / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    lg = math.lgamma(a)
    if z < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(-z + a * math.log(z) - lg)
    b = z + 1 - a
    c, d = 1.0 / 1e-300, 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - lg) * h


def chi_square(observed: Counter, expected: dict, n: int) -> tuple[float, int, float, list]:
    """(statistic, degrees of freedom, p-value, buckets) of `observed` counts of n samples against
    the probabilities `expected`; buckets with an expected count below 5 are pooled with their
    neighbour (in the order of the outcomes)."""
    buckets, cur_o, cur_e = [], 0, 0.0
    for k in sorted(set(expected) | set(observed)):
        cur_o += observed.get(k, 0)
        cur_e += float(expected.get(k, 0)) * n
        if cur_e >= 5:
            buckets.append((cur_o, cur_e))
            cur_o, cur_e = 0, 0.0
    if cur_e or cur_o:
        if buckets:
            o, e = buckets.pop()
            buckets.append((o + cur_o, e + cur_e))
        else:
            buckets.append((cur_o, cur_e))
    if any(e <= 0 for _, e in buckets):  # a sample the exact odds call impossible
        return math.inf, max(1, len(buckets) - 1), 0.0, buckets
    stat = sum((o - e) ** 2 / e for o, e in buckets)
    dof = max(1, len(buckets) - 1)
    return stat, dof, chi2_sf(stat, dof), buckets


def total_variation(exact: dict, observed: Counter, n: int) -> float:
    """Half the sum of the absolute differences between the exact and the sampled probabilities."""
    return 0.5 * sum(abs(float(exact.get(k, 0)) - observed.get(k, 0) / n) for k in set(exact) | set(observed))
