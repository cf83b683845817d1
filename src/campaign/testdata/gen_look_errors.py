#!/usr/bin/python3
"""Reference values for campaign/sampling_test.cc: the exact A/A error of the sign-test interval
over several looks, computed independently of tare (scipy.stats.binom for the ranks, numpy for the
random-walk dynamic program). Run with Debian's python3-scipy (scipy 1.10.1):
    /usr/bin/python3 src/campaign/testdata/gen_look_errors.py
and paste the printed numbers into sampling_test.cc when the cases change.
"""
import numpy as np
from scipy import stats


def rank(n, conf):
    """Largest k with 1 - 2 P(Bin(n, 1/2) <= k - 1) >= conf, or None."""
    best = None
    for k in range(1, (n + 1) // 2 + 1):
        if 1 - 2 * stats.binom.cdf(k - 1, n, 0.5) >= conf - 1e-12:
            best = k
    return best


def look_error(looks, conf):
    """P(some look's interval [d(k), d(n+1-k)] excludes 0), d symmetric continuous."""
    dist = np.zeros(looks[-1] + 1)
    dist[0] = 1.0
    n, err = 0, 0.0
    for nl in looks:
        while n < nl:
            new = 0.5 * dist
            new[1:] += 0.5 * dist[:-1]
            dist, n = new, n + 1
        k = rank(nl, conf)
        if k is None:
            continue
        reject = np.zeros_like(dist, dtype=bool)
        reject[:k] = True
        reject[nl - k + 1:nl + 1] = True
        err += dist[reject].sum()
        dist[reject] = 0.0
    return err


def calibrated(looks, alpha):
    """Smallest per-look confidence among the achievable coverages with error <= alpha."""
    bonf = 1 - alpha / len(looks)
    cands = {bonf}
    for n in looks:
        for k in range(1, (n + 1) // 2 + 1):
            c = 1 - 2 * stats.binom.cdf(k - 1, n, 0.5)
            if 1 - alpha <= c < bonf:
                cands.add(c)
    for c in sorted(cands):
        if look_error(looks, c) <= alpha:
            return c


if __name__ == "__main__":
    print("scipy", __import__("scipy").__version__)
    for looks in ([20, 40, 60, 80, 100], [10, 20, 30, 40, 50], [12, 24, 36, 48, 60, 72, 84, 96,
                                                                 108, 120], [30]):
        L = len(looks)
        c = calibrated(looks, 0.05)
        print(f"looks={looks}: naive(0.95)={look_error(looks, 0.95)!r} "
              f"bonferroni({1 - 0.05 / L:.6g})={look_error(looks, 1 - 0.05 / L)!r} "
              f"calibrated({c!r})={look_error(looks, c)!r}")
