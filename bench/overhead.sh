#!/usr/bin/env bash
# Per-sample harness overhead: tare run -- /bin/true vs hyperfine -N --runs N true, side by side,
# alternating, in one script. Reports the wall time per sample of each tool and their ratio, and
# the CPU time per sample (user + sys of the tool and everything it ran), which a loaded host
# disturbs much less than wall time.
# tare runs with its defaults: perf counters on, every sample committed to a real SQLite store.
#   bench/overhead.sh              # N=300 runs per tool, 5 alternating rounds
#   bench/overhead.sh --quick      # N=50, 2 rounds (CI)
#   bench/overhead.sh --breakdown  # also tare whose helper forks (TARE_SPAWN_FORK=1) instead of
#                                  # vforking, and tare --no-perf: where the time goes
#   TARGET='/usr/bin/git --version' bench/overhead.sh   # another program than /bin/true (split on
#                                  # spaces; a program of a few MiB skips the helper's page shedding)
#   TARE_BEFORE=old/build/tare bench/overhead.sh         # also an older tare (with its own helper
#                                  # beside it), alternating with the others: before and after;
#                                  # several, separated by spaces, each labelled with its path
set -euo pipefail
cd "$(dirname "$0")/.."
N=300; ROUNDS=5; BREAKDOWN=0
for a in "$@"; do
  case "$a" in
    --quick) N=50; ROUNDS=2 ;;
    --breakdown) BREAKDOWN=1 ;;
    *) echo "usage: bench/overhead.sh [--quick] [--breakdown]" >&2; exit 2 ;;
  esac
done
TARE=${TARE:-build/tare}
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
[ -x "$TARE" ] || { echo "$TARE is missing: run scripts/build.sh" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $("$TARE" --version 2>/dev/null | head -1)"
python3 - "$TARE" "$N" "$ROUNDS" "$work" "$BREAKDOWN" "${TARGET:-/bin/true}" <<'PY'
import os, resource, statistics, subprocess, sys, time
tare, n, rounds, work, breakdown = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
target = sys.argv[6].split()
def tare_run(store, *extra):
    return [tare, "run", "-q", "--warmup", "0", "-n", str(n), "--store", f"{work}/{store}", *extra, "--", *target]
tools = {
    "tare": (tare_run("tare.db"), {}),
    "hyperfine": (["hyperfine", "-N", "--runs", str(n), "--warmup", "0", "--style", "none",
                   "--export-json", f"{work}/hf.json", " ".join(target)], {}),
}
for i, before in enumerate(os.environ.get("TARE_BEFORE", "").split()):
    label = "tare before" if " " not in os.environ["TARE_BEFORE"].strip() else f"tare before ({before})"
    tools[label] = ([before, *tare_run(f"before{i}.db")[1:]], {})
if breakdown:
    tools["tare, helper forking"] = (tare_run("fork.db"), {"TARE_SPAWN_FORK": "1"})
    tools["tare --no-perf"] = (tare_run("noperf.db", "--no-perf"), {})
wall = {k: [] for k in tools}
cpu = {k: [] for k in tools}
for _ in range(rounds):
    for name, (argv, env) in tools.items():  # alternating: drift of the host hits both alike
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic_ns()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={**os.environ, **env})
        t1 = time.monotonic_ns()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall[name].append((t1 - t0) / n)
        cpu[name].append(((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e9 / n)
total = lambda xs: sum(xs) / len(xs)
print(f"target: {' '.join(target)}; samples per tool: {n * rounds} ({rounds} rounds of {n})")
print(f"tare run      : {total(wall['tare']) / 1e6:.3f} ms per sample (perf counters + SQLite commit per sample)")
print(f"hyperfine -N  : {total(wall['hyperfine']) / 1e6:.3f} ms per sample")
print(f"ratio tare/hyperfine: {total(wall['tare']) / total(wall['hyperfine']):.2f}"
      f" (median of rounds {statistics.median(wall['tare']) / statistics.median(wall['hyperfine']):.2f})")
print(f"CPU per sample: tare {total(cpu['tare']) / 1e3:.0f} us, hyperfine {total(cpu['hyperfine']) / 1e3:.0f} us,"
      f" ratio {total(cpu['tare']) / total(cpu['hyperfine']):.2f}")
for name in tools:
    if name not in ("tare", "hyperfine"):
        print(f"{name}: {total(wall[name]) / 1e6:.3f} ms per sample, ratio to hyperfine"
              f" {total(wall[name]) / total(wall['hyperfine']):.2f}, CPU {total(cpu[name]) / 1e3:.0f} us")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
