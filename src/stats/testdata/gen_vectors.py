#!/usr/bin/python3
"""Reference vectors for tare's statistics tests (src/stats/*_test.cc).

Run with Debian's python3 and python3-scipy (scipy 1.10.1, numpy 1.24.2 when generated):
    /usr/bin/python3 src/stats/testdata/gen_vectors.py > src/stats/testdata/vectors.json
The output is committed; the tests read it through $TARE_SOURCE_DIR and never run Python.

Every expected value comes from scipy/numpy (named per section in "source"), not from tare's own
formulas, so the tests compare two independent computations. Inputs are fixed arrays or come from
numpy's seeded generator; all floats are written with repr() precision (exact round trip).
"""
import itertools
import json
import math
import statistics
import sys

import numpy as np
import scipy
from scipy import stats

RNG = np.random.default_rng(20240601)


def fl(xs):
    return [float(x) for x in xs]


def nan_to_none(x):
    x = float(x)
    return None if math.isnan(x) else x


# ---------------------------------------------------------------- summary / quantiles
def summary_cases():
    inputs = [
        [5.0],
        [3.0, 1.0],
        [2.0, 2.0, 2.0, 2.0],
        [1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 10.0],
        fl(RNG.normal(100.0, 5.0, 25)),
        fl(RNG.lognormal(0.0, 0.5, 101)),
        fl(1e9 + RNG.normal(0.0, 10.0, 40)),   # large offset, small spread
        fl(RNG.uniform(1e-300, 9e-300, 17)),   # tiny values
        fl(RNG.uniform(1e200, 2e200, 13)),     # huge values
        [-4.0, 0.0, 4.0, 1.5, -2.5, 7.25],
    ]
    cases = []
    for v in inputs:
        a = np.array(v)
        qs = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0]
        # statistics.stdev works in exact rationals: no overflow for 1e200, no underflow for 1e-300.
        sd = float(statistics.stdev(v)) if len(a) > 1 else None
        mean = float(np.mean(a))
        cases.append({
            "values": v,
            "n": len(v),
            "mean": mean,
            "median": float(np.median(a)),
            "mad": float(stats.median_abs_deviation(a, scale=1.0)),
            "stddev": sd,
            "cv": (sd / mean) if sd is not None and mean != 0 else None,
            "min": float(np.min(a)),
            "max": float(np.max(a)),
            "p95": float(np.quantile(a, 0.95)),
            "p99": float(np.quantile(a, 0.99)),
            "quantiles": [[q, float(np.quantile(a, q))] for q in qs],
        })
    return {"source": "numpy.mean/median/quantile(method='linear'), statistics.stdev (exact "
                      "rationals), "
                      "scipy.stats.median_abs_deviation(scale=1.0)",
            "cases": cases}


# ---------------------------------------------------------------- binomial
def binomial_cases():
    cases = []
    grid = [(4, 9, 0.8), (4, 9, 0.7), (4, 9, 0.6), (0, 1, 0.5), (1, 1, 0.5), (3, 10, 0.5),
            (0, 10, 0.5), (10, 10, 0.5), (5, 10, 0.0), (5, 10, 1.0), (0, 10, 0.0), (10, 10, 1.0),
            (2, 100, 0.5), (98, 100, 0.5), (10, 1000, 0.5), (990, 1000, 0.5),
            (3, 50, 0.01), (0, 50, 0.01), (49, 50, 0.999), (500, 1000, 0.5), (30, 40, 0.2),
            (1, 1000000, 1e-6), (12, 25, 0.5)]
    for k, n, p in grid:
        cases.append({"k": k, "n": n, "p": p,
                      "pmf": float(stats.binom.pmf(k, n, p)),
                      "cdf": float(stats.binom.cdf(k, n, p)),
                      "sf": float(stats.binom.sf(k, n, p))})
    cp = []
    for k, n, c in [(0, 10, 0.95), (10, 10, 0.95), (3, 10, 0.95), (5, 10, 0.99), (1, 1, 0.95),
                    (0, 1, 0.95), (17, 100, 0.95), (50, 100, 0.9), (1, 1000, 0.95),
                    (999, 1000, 0.95), (7, 9, 0.8), (250, 5000, 0.999)]:
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=c, method="exact")
        cp.append({"k": k, "n": n, "confidence": c, "lo": float(ci.low), "hi": float(ci.high)})
    return {"source": "scipy.stats.binom.pmf/cdf/sf; "
                      "scipy.stats.binomtest(k, n).proportion_ci(method='exact')",
            "cases": cases, "clopper_pearson": cp}


# ---------------------------------------------------------------- sign test
def sign_test_ranks():
    out = []
    for conf in [0.95, 0.9, 0.99, 0.995]:
        for n in list(range(1, 41)) + [50, 75, 100, 120, 250, 1000, 1001, 2500]:
            best = None
            for k in range(1, (n + 1) // 2 + 1):
                cov = 1.0 - 2.0 * float(stats.binom.cdf(k - 1, n, 0.5))
                if cov >= conf:
                    best = (k, cov)
            out.append({"n": n, "confidence": conf,
                        "k": best[0] if best else None,
                        "coverage": best[1] if best else None})
    return out


def sign_test_paired():
    cases = []
    specs = [
        (7, 0.95, 0.02, 0.01), (10, 0.95, -0.03, 0.02), (25, 0.95, 0.005, 0.01),
        (40, 0.99, 0.0, 0.02), (12, 0.9, 0.1, 0.05),
    ]
    for n, conf, shift, noise in specs:
        base = RNG.lognormal(math.log(1e6), 0.02, n)
        head = base * np.exp(shift + RNG.normal(0.0, noise, n))
        d = np.sort(np.log(head / base))
        k = None
        for kk in range(1, (n + 1) // 2 + 1):
            if 1.0 - 2.0 * float(stats.binom.cdf(kk - 1, n, 0.5)) >= conf:
                k = kk
        cases.append({"base": fl(base), "head": fl(head), "confidence": conf,
                      "log_median": float(np.median(d)),
                      "log_lo": float(d[k - 1]), "log_hi": float(d[n - k]),
                      "estimate": float(np.expm1(np.median(d))),
                      "lo": float(np.expm1(d[k - 1])), "hi": float(np.expm1(d[n - k])),
                      "k": k})
    # Huge and tiny magnitudes: the ratio must not overflow.
    # (1e300 -> 1e-300: the ratio underflows, the log is -1381.6 and the change -100%.)
    base = [1e300, 1e-300, 2.5e-310, 7.0, 1e308, 3e-5, 1.0]
    head = [1e-300, 2e-300, 5e-310, 7.7, 1e307, 3e-5, 1.0]
    logs = [math.log(h) - math.log(b) for b, h in zip(base, head)]
    cases.append({"base": base, "head": head, "confidence": 0.95,
                  "log_median": float(np.median(logs)),
                  "log_lo": float(min(logs)), "log_hi": float(max(logs)),
                  "estimate": math.expm1(float(np.median(logs))),
                  "lo": math.expm1(min(logs)), "hi": math.expm1(max(logs)), "k": 1})
    return cases


# ---------------------------------------------------------------- Wilcoxon / Hodges-Lehmann
def wilcoxon_cdf_cases():
    """P(T+ <= t) from scipy.stats.wilcoxon(method='exact', alternative='less') on data built
    to have that T+ (ranks 1..n, the ranks in the subset positive)."""
    out = []
    for n in [1, 2, 5, 8, 10, 15, 20, 30, 50]:
        m = n * (n + 1) // 2
        for t in sorted({t for t in (0, 1, 2, m // 4, m // 3, m // 2, m - 1, m) if t <= m}):
            # Greedy subset of {1..n} with sum t.
            rest, pos = t, set()
            for r in range(n, 0, -1):
                if r <= rest:
                    pos.add(r)
                    rest -= r
            assert rest == 0
            d = [float(r) if r in pos else -float(r) for r in range(1, n + 1)]
            res = stats.wilcoxon(d, alternative="less", method="exact")
            out.append({"n": n, "t": t, "cdf": float(res.pvalue)})
    return out


def hl_case(x, conf):
    x = np.asarray(x, dtype=float)
    n = len(x)
    walsh = np.sort(np.array([(x[i] + x[j]) / 2 for i in range(n) for j in range(i, n)]))
    method = "exact" if n <= 50 else "approx"
    kwargs = {"method": method}
    if method == "approx":
        kwargs["correction"] = True
    # Invert the two-sided test: a shift theta is inside the interval when the test of x - theta
    # does not reject. Probe the midpoint of every gap between distinct Walsh averages.
    distinct = np.unique(walsh)
    accepted = []
    for a, b in zip(distinct[:-1], distinct[1:]):
        theta = (a + b) / 2
        p = stats.wilcoxon(x - theta, **kwargs).pvalue
        if p > 1 - conf:
            accepted.append((a, b))
    return {"values": fl(x), "confidence": conf,
            "estimate": float(np.median(walsh)),
            "lo": float(accepted[0][0]), "hi": float(accepted[-1][1]),
            "exact": method == "exact"}


def hodges_lehmann_cases():
    cases = []
    for n, conf in [(6, 0.95), (7, 0.95), (9, 0.9), (12, 0.95), (20, 0.95), (30, 0.99),
                    (50, 0.95), (51, 0.95), (60, 0.9), (120, 0.95)]:
        x = RNG.normal(0.01, 0.02, n) + RNG.standard_t(3, n) * 0.002
        cases.append(hl_case(x, conf))
    return cases


# ---------------------------------------------------------------- Mann-Whitney
def mann_whitney_cases():
    inputs = [
        ([1.0, 2.0, 3.5], [4.0, 5.0, 6.0, 7.0]),
        ([0.5, 9.0, 3.0, 4.4, 1.1], [2.0, 8.0, 7.0, 6.5, 5.5, 10.0]),
        (fl(RNG.normal(0, 1, 8)), fl(RNG.normal(0.8, 1, 12))),
        (fl(RNG.normal(0, 1, 3)), fl(RNG.normal(0, 1, 40))),
        (fl(RNG.normal(0, 1, 20)), fl(RNG.normal(0.5, 1, 25))),
        (fl(RNG.normal(0, 1, 60)), fl(RNG.normal(0.1, 1, 70))),
        ([1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 5.0]),           # ties -> asymptotic
        ([1.0, 1.0, 1.0], [1.0, 1.0]),                                # all equal
        ([5.0], [1.0, 2.0, 3.0]),                                     # n1 = 1
        (fl(np.round(RNG.normal(10, 2, 30))), fl(np.round(RNG.normal(11, 2, 30)))),  # many ties
        ([1e-300, 2e-300, 3e-300, 4e-300], [5e-300, 6e-300, 7e-300, 8e-300, 9e-300]),
    ]
    cases = []
    for x, y in inputs:
        auto = stats.mannwhitneyu(x, y, alternative="two-sided", method="auto",
                                  use_continuity=True)
        asym = stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic",
                                  use_continuity=True)
        ties = len(set(x + y)) < len(x + y)
        case = {"x": x, "y": y, "u": float(auto.statistic),
                "p_auto": float(auto.pvalue), "p_asymptotic": float(asym.pvalue),
                "auto_is_exact": (min(len(x), len(y)) <= 8) and not ties}
        if not ties:
            case["p_exact"] = float(stats.mannwhitneyu(x, y, method="exact").pvalue)
        cases.append(case)
    return cases


# ---------------------------------------------------------------- outliers
def outlier_cases():
    inputs = [
        [1.0, 2.0, 3.0, 4.0, 100.0],
        [10.0, 10.0, 10.0, 10.0, 10.0, 10.0],
        [10.0, 10.0, 10.0, 10.0, 12.0, 9.0, 10.0],
        fl(np.concatenate([RNG.normal(100, 1, 50), [80.0, 121.0, 130.0]])),
        fl(RNG.standard_t(2, 200)),
        [-50.0, 0.0, 0.1, 0.2, 0.3, 0.4, 55.0],
        [42.0],
    ]
    cases = []
    for v in inputs:
        a = np.array(v)
        q1, q3 = np.quantile(a, [0.25, 0.75])
        lo_f, hi_f = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
        med = float(np.median(a))
        mad = float(stats.median_abs_deviation(a, scale=1.0))
        thr = 3.5 * 1.4826 * mad
        cases.append({"values": v, "q1": float(q1), "q3": float(q3),
                      "low_fence": float(lo_f), "high_fence": float(hi_f),
                      "tukey_low": int(np.sum(a < lo_f)), "tukey_high": int(np.sum(a > hi_f)),
                      "median": med, "mad": mad,
                      "mad_low": int(np.sum(a < med - thr)), "mad_high": int(np.sum(a > med + thr))})
    return cases


# ---------------------------------------------------------------- Spearman drift
def spearman_cases():
    drift_inputs = [
        fl(np.arange(10) * 0.1 + RNG.normal(0, 0.2, 10)),
        fl(RNG.normal(0, 1, 30)),
        fl(np.linspace(1, 2, 12)),                    # perfectly increasing -> p = 0
        fl(np.linspace(2, 1, 12)),
        [3.0, 1.0, 2.0, 2.0, 5.0, 5.0, 4.0, 6.0],     # ties
        fl(1e9 + np.arange(50) * 3.0 + RNG.normal(0, 40, 50)),
        [1.0, 2.0, 1.5],
        fl(RNG.normal(0, 1, 400)),
    ]
    drift = []
    for v in drift_inputs:
        r = stats.spearmanr(np.arange(len(v)), v)
        drift.append({"values": v, "rho": float(r.correlation), "p": float(r.pvalue)})
    pairs = []
    for x, y in [([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 7.0]),
                 (fl(RNG.normal(0, 1, 20)), fl(RNG.normal(0, 1, 20))),
                 ([1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [3.0, 1.0, 2.0, 2.0, 1.0, 3.0])]:
        r = stats.spearmanr(x, y)
        pairs.append({"x": x, "y": y, "rho": float(r.correlation), "p": float(r.pvalue)})
    return {"drift": drift, "pairs": pairs}


# ---------------------------------------------------------------- two-sample shift
def shift_case(x, y, conf):
    """Median of y_j - x_i; interval: shifts theta whose scipy.stats.mannwhitneyu(y - theta, x,
    method='auto') p-value exceeds 1 - conf, probing below, between and above the distinct
    differences (None = unbounded)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    d = np.sort((y[None, :] - x[:, None]).ravel())
    distinct = np.unique(d)
    probes = [distinct[0] - 1.0 - abs(distinct[0])]
    probes += [(a + b) / 2 for a, b in zip(distinct[:-1], distinct[1:])]
    probes += [distinct[-1] + 1.0 + abs(distinct[-1])]
    ok = [stats.mannwhitneyu(y - t, x, alternative="two-sided", method="auto",
                             use_continuity=True).pvalue > 1 - conf for t in probes]
    first = ok.index(True)
    last = len(ok) - 1 - ok[::-1].index(True)
    lo = None if first == 0 else float(distinct[first - 1])
    hi = None if last == len(probes) - 1 else float(distinct[last])
    return {"x": fl(x), "y": fl(y), "confidence": conf, "estimate": float(np.median(d)),
            "lo": lo, "hi": hi}


def two_sample_shift_cases():
    cases = []
    for m, n, conf, shift in [(5, 5, 0.95, 0.3), (8, 6, 0.9, 0.0), (3, 3, 0.95, 1.0),
                              (10, 12, 0.95, 0.05), (20, 20, 0.95, 0.02), (30, 25, 0.99, -0.1),
                              (40, 40, 0.95, 0.0)]:
        x = RNG.normal(1.0, 0.05, m)
        y = RNG.normal(1.0 + shift, 0.05, n)
        cases.append(shift_case(x, y, conf))
    # Ties (rounded values), and a deterministic pair (every value equal on each side).
    cases.append(shift_case(fl(np.round(RNG.normal(10, 1, 15))), fl(np.round(RNG.normal(11, 1, 15))), 0.95))
    return cases


def main():
    out = {
        "generator": "src/stats/testdata/gen_vectors.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "summary": summary_cases(),
        "binomial": binomial_cases(),
        "sign_test": {"source": "k = largest with 1 - 2*scipy.stats.binom.cdf(k-1, n, 0.5) >= "
                                "confidence; order statistics by numpy.sort",
                      "ranks": sign_test_ranks(), "paired": sign_test_paired()},
        "wilcoxon_cdf": {"source": "scipy.stats.wilcoxon(method='exact', alternative='less')",
                         "cases": wilcoxon_cdf_cases()},
        "hodges_lehmann": {"source": "estimate: numpy.median of Walsh averages; interval: "
                                     "inversion of scipy.stats.wilcoxon (method='exact' for "
                                     "n <= 50, 'approx' with correction=True above)",
                           "cases": hodges_lehmann_cases()},
        "mann_whitney": {"source": "scipy.stats.mannwhitneyu(use_continuity=True, "
                                   "alternative='two-sided')",
                         "cases": mann_whitney_cases()},
        "outliers": {"source": "numpy.quantile (linear), scipy.stats.median_abs_deviation",
                     "cases": outlier_cases()},
        "spearman": {"source": "scipy.stats.spearmanr", **spearman_cases()},
        "two_sample_shift": {"source": "numpy.median of y_j - x_i; interval: inversion of "
                                       "scipy.stats.mannwhitneyu(method='auto', use_continuity=True)",
                             "cases": two_sample_shift_cases()},
    }
    json.dump(out, sys.stdout, indent=1, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
