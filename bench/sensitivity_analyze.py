#!/usr/bin/python3
"""Reads a bench/sensitivity.sh output directory and prints the detection / false-positive table.

    bench/sensitivity_analyze.py OUT            # Markdown summary of OUT/campaigns.tsv
    bench/sensitivity_analyze.py --one TOOL F   # one campaign's outcome, for the progress line

Per campaign (definitions, the same for every cell):
  tare (and tare-<variant>): the head comparison's verdict from the tare.ab/1 JSON.
    detected        = verdict FAIL
    false positive  = on A/A, verdict FAIL or a supported gain (either is a claimed change)
    wrong direction = on a slowdown, a supported gain
  hyperfine: Welch's t-test on the two `times` arrays (wall time per run, base then head), as
    hyperfine's scripts/welch_ttest.py does: scipy.stats.ttest_ind(X, Y, equal_var=False).
    detected        = p < 0.05 and mean(head) > mean(base)
    false positive  = on A/A, p < 0.05 in either direction
    wrong direction = on a slowdown, p < 0.05 and mean(head) < mean(base)
Rates carry exact Clopper-Pearson 95% intervals (Clopper & Pearson 1934):
  lo = Beta(0.025; k, n-k+1), hi = Beta(0.975; k+1, n-k); k = 0 -> lo = 0, k = n -> hi = 1.
Needs scipy (Debian: python3-scipy); run with /usr/bin/python3.
"""
import csv
import json
import os
import statistics
import sys

from scipy import stats

ALPHA = 0.05
CELL_LABEL = {"aa": "A/A (no change)", "plus0_5": "+0.5%", "plus1": "+1%", "plus2": "+2%",
              "plus5": "+5%"}
CELL_ORDER = ["aa", "plus0_5", "plus1", "plus2", "plus5"]


def clopper_pearson(k, n, confidence=0.95):
    if n == 0:
        return (float("nan"), float("nan"))
    a = 1 - confidence
    lo = 0.0 if k == 0 else stats.beta.ppf(a / 2, k, n - k + 1)
    hi = 1.0 if k == n else stats.beta.ppf(1 - a / 2, k + 1, n - k)
    return (lo, hi)


def tare_outcome(path):
    """-> dict(flag, wrong_way, change, runs_per_arm, verdict, floor) or raises on a broken run."""
    with open(path) as f:
        r = json.load(f)
    comps = [c for c in r["comparisons"] if c.get("head") == "head"] or r["comparisons"]
    c = comps[0]
    m = c["metrics"][0] if c["metrics"] else {}
    change = (m.get("change") or {}).get("estimate")
    null = m.get("null") or {}
    return {
        "verdict": c["verdict"],
        "fail": c["verdict"] == "FAIL",
        "gain": bool(c["supported_gain"]),
        "change": change,
        "runs_per_arm": c["blocks"],
        "floor": null.get("noise_floor"),
        "metric": m.get("metric"),
        "too_noisy": bool(r.get("host_too_noisy")),
    }


def hyperfine_outcome(path):
    with open(path) as f:
        results = json.load(f)["results"]
    if len(results) != 2:
        raise ValueError(f"{path}: expected two commands, found {len(results)}")
    for res in results:
        if any(code != 0 for code in res.get("exit_codes", [])):
            raise ValueError(f"{path}: a run of {res['command']} failed")
    x, y = results[0]["times"], results[1]["times"]
    _, p = stats.ttest_ind(x, y, equal_var=False)
    mx, my = statistics.fmean(x), statistics.fmean(y)
    return {"p": float(p), "slower": my > mx, "change": my / mx - 1, "runs_per_arm": len(x),
            "cv_base": statistics.stdev(x) / mx}


def classify(tool, cell, o):
    """-> (flagged, wrong_way): flagged = detected (slowdown) or false positive (A/A)."""
    if tool == "hyperfine":
        sig = o["p"] < ALPHA
        if cell == "aa":
            return sig, False
        return sig and o["slower"], sig and not o["slower"]
    if cell == "aa":
        return o["fail"] or o["gain"], False
    return o["fail"], o["gain"]


def one(tool, path):
    if tool == "hyperfine":
        o = hyperfine_outcome(path)
        return f"p={o['p']:.3g} {o['change']:+.2%} (wall, {o['runs_per_arm']} runs/arm)"
    o = tare_outcome(path)
    gain = " +gain" if o["gain"] else ""
    change = "n/a" if o["change"] is None else f"{o['change']:+.2%}"
    floor = "" if o["floor"] is None else f", floor {o['floor']:.2%}"
    return f"{o['verdict']}{gain} {change} at {o['runs_per_arm']} pairs{floor}"


def pct(x):
    return f"{100 * x:.0f}%"


def main(out):
    rows = list(csv.DictReader(open(os.path.join(out, "campaigns.tsv")), delimiter="\t"))
    tools = []
    for r in rows:
        if r["tool"] not in tools:
            tools.append(r["tool"])
    tools.sort(key=lambda t: (t != "tare", t != "hyperfine", t))
    cells = {}   # (runs, cell, tool) -> list of outcome dicts
    errors = {}
    for r in rows:
        key = (int(r["runs"]), r["cell"], r["tool"])
        try:
            # tare exits 0 (PASS, or INCONCLUSIVE with --inconclusive-ok) or 1 (FAIL); anything
            # else (130 interrupted, 2 bad input, 4 gate) is a broken campaign, not a verdict.
            if r["exit"] not in (("0",) if r["tool"] == "hyperfine" else ("0", "1")):
                raise ValueError(f"exit {r['exit']} (see {r['file'][:-5]}.log)")
            path = os.path.join(out, r["file"])
            o = hyperfine_outcome(path) if r["tool"] == "hyperfine" else tare_outcome(path)
        except (OSError, ValueError, KeyError, IndexError, json.JSONDecodeError) as e:
            errors.setdefault(key, []).append(f"round {r['round']}: {e}")
            continue
        o["flag"], o["wrong"] = classify(r["tool"], r["cell"], o)
        o["load1"] = float(r["load1"])
        o["seconds"] = float(r["seconds"])
        cells.setdefault(key, []).append(o)

    meta = open(os.path.join(out, "meta.txt")).read().strip()
    print("```")
    print("\n".join(line for line in meta.splitlines() if not line.startswith("sha256")))
    print("```\n")
    for runs in sorted({k[0] for k in cells}):
        print(f"**R = {runs} runs per arm** (tare: cap {runs} pairs; hyperfine: --runs {runs})\n")
        header = "| change |" + "".join(f" {t} |" for t in tools)
        header += " measured change (" + ", ".join(tools) + ") |"
        print(header)
        print("|---|" + "---|" * (len(tools) + 1))
        for cell in CELL_ORDER:
            line = f"| {CELL_LABEL[cell]} |"
            changes = []
            for tool in tools:
                os_ = cells.get((runs, cell, tool), [])
                n, k = len(os_), sum(o["flag"] for o in os_)
                if n == 0:
                    line += " — |"
                    changes.append("—")
                    continue
                lo, hi = clopper_pearson(k, n)
                wrong = sum(o["wrong"] for o in os_)
                extra = f"; {wrong} wrong way" if wrong else ""
                if tool != "hyperfine":
                    used = statistics.fmean(o["runs_per_arm"] for o in os_)
                    extra += f"; {used:.0f} runs/arm"
                err = len(errors.get((runs, cell, tool), []))
                extra += f"; {err} broken" if err else ""
                line += f" {k}/{n} = {pct(k / n)} [{pct(lo)}, {pct(hi)}]{extra} |"
                ch = [o["change"] for o in os_ if o["change"] is not None]
                changes.append(f"{statistics.median(ch):+.2%}" if ch else "—")
            print(line + " " + ", ".join(changes) + " |")
        print()
    tare_tools = [t for t in tools if t != "hyperfine"]
    if tare_tools:
        print("tare verdicts per cell (PASS / INCONCLUSIVE / FAIL; +g = of them with a supported "
              "gain):\n")
        print("| R | change |" + "".join(f" {t} |" for t in tare_tools))
        print("|---|---|" + "---|" * len(tare_tools))
        for runs in sorted({k[0] for k in cells}):
            for cell in CELL_ORDER:
                line = f"| {runs} | {CELL_LABEL[cell]} |"
                if not any((runs, cell, t) in cells for t in tare_tools):
                    continue
                for tool in tare_tools:
                    os_ = cells.get((runs, cell, tool), [])
                    count = {v: sum(o["verdict"] == v for o in os_)
                             for v in ("PASS", "INCONCLUSIVE", "FAIL")}
                    gains = sum(o["gain"] for o in os_)
                    g = f" (+g {gains})" if gains else ""
                    line += (f" {count['PASS']} / {count['INCONCLUSIVE']} / {count['FAIL']}{g} |"
                             if os_ else " — |")
                print(line)
        print()
    loads = [o["load1"] for v in cells.values() for o in v]
    if loads:
        q = statistics.quantiles(loads, n=10) if len(loads) > 1 else [loads[0]] * 9
        print(f"Campaigns: {len(loads)}; 1-minute load average at their start: min {min(loads):.2f}, "
              f"median {statistics.median(loads):.2f}, p90 {q[8]:.2f}, max {max(loads):.2f}.")
    for tool in tools:
        secs = [o["seconds"] for (r_, c_, t), v in cells.items() if t == tool for o in v]
        ld = [o["load1"] for (r_, c_, t), v in cells.items() if t == tool for o in v]
        if secs:
            print(f"- {tool}: {len(secs)} campaigns, {sum(secs) / 60:.1f} min in all, "
                  f"mean load at start {statistics.fmean(ld):.2f}")
    hf = [o for (r_, c_, t), v in cells.items() if t == "hyperfine" for o in v]
    if hf:
        print(f"- hyperfine base-arm wall-time CV per campaign: median "
              f"{statistics.median(o['cv_base'] for o in hf):.1%}")
    tare_floor = [o["floor"] for (r_, c_, t), v in cells.items() if t == "tare" for o in v
                  if o.get("floor") is not None]
    if tare_floor:
        print(f"- tare noise floor (null-interval-edge-v1) at its last look: median "
              f"{statistics.median(tare_floor):.2%}, max {max(tare_floor):.2%}")
    noisy = sum(o.get("too_noisy", False) for (r_, c_, t), v in cells.items()
                if t.startswith("tare") for o in v)
    if noisy:
        print(f"- tare campaigns flagged HOST TOO NOISY: {noisy}")
    for key, errs in sorted(errors.items()):
        print(f"- broken campaigns {key}: " + "; ".join(errs))
    print("\nA rate is caught/flagged over campaigns, with its exact Clopper-Pearson 95% interval. "
          "A/A row: false positives (tare: FAIL or supported gain; hyperfine: Welch p < 0.05 "
          "either way). Other rows: detections (tare: FAIL; hyperfine: p < 0.05 and head slower). "
          "'wrong way': a slowdown reported as a gain. 'runs/arm': tare's mean pairs used "
          "(it stops a cell once decided). Measured change: median over campaigns of tare's "
          "estimate (CPU time, perf.task_clock_ns) and of hyperfine's mean wall-time ratio.")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        print(one(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 2 and not sys.argv[1].startswith("-"):
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
