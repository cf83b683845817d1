#!/usr/bin/env bash
# Per-sample harness overhead: tare run -- /bin/true vs hyperfine -N --runs N true, side by side,
# alternating, in one script. Reports the wall time per sample of each tool and their ratio, and
# the CPU time per sample (user + sys of the tool and everything it ran), which a loaded host
# disturbs much less than wall time.
# tare runs with its defaults: perf counters on, every sample committed to a real SQLite store.
#   bench/overhead.sh            # N=300 runs per tool, 5 alternating rounds
#   bench/overhead.sh --quick    # N=50, 2 rounds (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
N=300; ROUNDS=5
if [ "${1:-}" = "--quick" ]; then N=50; ROUNDS=2; fi
TARE=${TARE:-build/tare}
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install hyperfine" >&2; exit 2; }
[ -x "$TARE" ] || { echo "$TARE is missing: run scripts/build.sh" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$TARE" "$N" "$ROUNDS" "$work" <<'PY'
import resource, statistics, subprocess, sys, time
tare, n, rounds, work = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
tools = {
    "tare": [tare, "run", "-q", "--warmup", "0", "-n", str(n), "--store", f"{work}/tare.db",
             "--", "/bin/true"],
    "hyperfine": ["hyperfine", "-N", "--runs", str(n), "--warmup", "0", "--style", "none",
                  "--export-json", f"{work}/hf.json", "true"],
}
wall = {k: [] for k in tools}
cpu = {k: [] for k in tools}
for _ in range(rounds):
    for name, argv in tools.items():  # alternating: drift of the host hits both alike
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic_ns()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t1 = time.monotonic_ns()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall[name].append((t1 - t0) / n)
        cpu[name].append(((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e9 / n)
total = lambda xs: sum(xs) / len(xs)
print(f"samples per tool: {n * rounds} ({rounds} rounds of {n})")
print(f"tare run      : {total(wall['tare']) / 1e6:.3f} ms per sample (perf counters + SQLite commit per sample)")
print(f"hyperfine -N  : {total(wall['hyperfine']) / 1e6:.3f} ms per sample")
print(f"ratio tare/hyperfine: {total(wall['tare']) / total(wall['hyperfine']):.2f}"
      f" (median of rounds {statistics.median(wall['tare']) / statistics.median(wall['hyperfine']):.2f})")
print(f"CPU per sample: tare {total(cpu['tare']) / 1e3:.0f} us, hyperfine {total(cpu['hyperfine']) / 1e3:.0f} us,"
      f" ratio {total(cpu['tare']) / total(cpu['hyperfine']):.2f}")
PY
