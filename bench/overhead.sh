#!/usr/bin/env bash
# Per-sample harness overhead: tare run -- /bin/true vs hyperfine -N --runs N true, side by side,
# alternating, in one script. Reports, for each tool:
#   - the whole run's wall time per sample at N samples (start-up and finish included), and the
#     ratio tare/hyperfine;
#   - the marginal cost of a sample: (T(5N) - T(N)) / 4N from a second run of 5N samples each round,
#     which start-up and finish do not enter, and its ratio;
#   - a run of one sample: the fixed cost per run (tare reads git and the host, opens and closes
#     the store, starts its spawn helper; hyperfine starts and prints), one sample included;
#   - the CPU time per sample (user + sys of the tool and everything it ran), which a loaded host
#     disturbs much less than wall time, and the harness's own share of it: that CPU less what the
#     tool measured the program itself to use (tare: the samples' user_ns + sys_ns, hyperfine: its
#     JSON's user + system) — tare with its spawn helper and writing thread, against hyperfine.
# tare runs with its defaults: perf counters on, every sample committed to a real SQLite store.
#   bench/overhead.sh              # N=300 (and 1500) runs per tool, 5 alternating rounds
#   bench/overhead.sh --quick      # N=50 (and 250), 2 rounds: a quick look
#   bench/overhead.sh --breakdown  # also tare whose helper forks (TARE_SPAWN_FORK=1) instead of
#                                  # vforking, tare --no-perf, and tare committing its batches of
#                                  # samples on its own thread, between samples (TARE_WRITE_BEHIND=0):
#                                  # where the time goes
#   TARGET='/usr/bin/git --version' bench/overhead.sh   # another program than /bin/true (split on
#                                  # spaces; a program of a few MiB skips the helper's page shedding)
#   ROUNDS=12 bench/overhead.sh    # more alternating rounds: this VM's phases move single rounds by
#                                  # 10-20%, so the means of 5 rounds differ by ~0.05 between passes
#   TARE_BEFORE=old/build/tare bench/overhead.sh         # also an older tare (with its own helper
#                                  # beside it), alternating with the others: before and after;
#                                  # several, separated by spaces, each labelled with its path
set -euo pipefail
cd "$(dirname "$0")/.."
N=300; ROUNDS=${ROUNDS:-5}; BREAKDOWN=0
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
long_n = 5 * n
def tare_run(store, *extra):
    return lambda k: [tare, "run", "-q", "--warmup", "0", "-n", str(k), "--store", f"{work}/{store}", *extra, "--", *target]
tools = {
    "tare": (tare_run("tare.db"), {}),
    "hyperfine": (lambda k: ["hyperfine", "-N", "--runs", str(k), "--warmup", "0", "--style", "none",
                             "--export-json", f"{work}/hf.json", " ".join(target)], {}),
}
for i, before in enumerate(os.environ.get("TARE_BEFORE", "").split()):
    label = "tare before" if " " not in os.environ["TARE_BEFORE"].strip() else f"tare before ({before})"
    tools[label] = ((lambda b, run: lambda k: [b, *run(k)[1:]])(before, tare_run(f"before{i}.db")), {})
if breakdown:
    tools["tare, helper forking"] = (tare_run("fork.db"), {"TARE_SPAWN_FORK": "1"})
    tools["tare --no-perf"] = (tare_run("noperf.db", "--no-perf"), {})
    tools["tare, batches committed between samples"] = (tare_run("sync.db"), {"TARE_WRITE_BEHIND": "0"})
wall = {k: [] for k in tools}      # ns per sample at n, per round
wall_long = {k: [] for k in tools} # ns per sample at 5n, per round
marginal = {k: [] for k in tools}  # ns per added sample: (T(5n) - T(n)) / 4n, per round
one = {k: [] for k in tools}       # ns for a run of one sample: start-up and finish, per round
cpu = {k: [] for k in tools}
own = {k: [] for k in tools}       # ns per sample of the harness's own CPU: cpu less the program's
own_marginal = {k: [] for k in tools}  # the same per added sample, from the 5n run
import json
def program_cpu_ns(name, store):
    """The measured program's CPU (user + sys) over the last run, as the tool itself measured it."""
    if name == "hyperfine" or store is None:
        r = json.load(open(f"{work}/hf.json"))["results"][0]
        return (r["user"] + r["system"]) * 1e9 * len(r["times"])
    out = subprocess.run([tare, "export", "--run", "latest", "--store", store], check=True,
                         capture_output=True, text=True).stdout
    return sum(s["values"].get("user_ns", 0) + s["values"].get("sys_ns", 0)
               for b in json.loads(out)["benchmarks"] for s in b["samples"])
stores = {"tare": "tare.db", "hyperfine": None}
stores.update({k: None for k in tools if k not in stores})
def timed(argv, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic_ns()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env})
    t1 = time.monotonic_ns()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return t1 - t0, ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e9
for _ in range(rounds):
    for name, (argv, env) in tools.items():  # alternating: drift of the host hits every tool alike
        t, c = timed(argv(n), env)
        mine = name in ("tare", "hyperfine")
        store = stores[name] and f"{work}/{stores[name]}"
        own_n = c - program_cpu_ns(name, store) if mine else 0  # before the next run replaces it
        t_long, c_long = timed(argv(long_n), env)  # right after: the same phase of the host
        if mine:
            own[name].append(own_n / n)
            own_marginal[name].append((c_long - program_cpu_ns(name, store) - own_n) / (long_n - n))
        wall[name].append(t / n)
        wall_long[name].append(t_long / long_n)
        cpu[name].append(c / n)
        marginal[name].append((t_long - t) / (long_n - n))
        one[name].append(timed(argv(1), env)[0])
mean = lambda xs: sum(xs) / len(xs)
med = statistics.median
marginal = {k: med(v) for k, v in marginal.items()}  # medians: a round the host slowed counts less
one = {k: med(v) for k, v in one.items()}
print(f"target: {' '.join(target)}; {rounds} rounds of {n} and of {long_n} samples per tool")
print(f"tare run      : {mean(wall['tare']) / 1e6:.3f} ms per sample at {n} (perf counters, every sample committed to SQLite)")
print(f"hyperfine -N  : {mean(wall['hyperfine']) / 1e6:.3f} ms per sample at {n}")
print(f"ratio tare/hyperfine: {mean(wall['tare']) / mean(wall['hyperfine']):.2f}"
      f" (median of rounds {statistics.median(wall['tare']) / statistics.median(wall['hyperfine']):.2f})")
print(f"at {long_n}: tare {mean(wall_long['tare']) / 1e6:.3f} ms per sample, hyperfine {mean(wall_long['hyperfine']) / 1e6:.3f},"
      f" ratio {mean(wall_long['tare']) / mean(wall_long['hyperfine']):.2f}"
      f" (median of rounds {statistics.median(wall_long['tare']) / statistics.median(wall_long['hyperfine']):.2f})")
print(f"marginal cost of a sample (median of rounds): tare {marginal['tare'] / 1e6:.3f} ms, hyperfine {marginal['hyperfine'] / 1e6:.3f} ms,"
      f" ratio {marginal['tare'] / marginal['hyperfine']:.2f}")
print(f"a run of one sample (median of rounds): tare {one['tare'] / 1e6:.1f} ms, hyperfine {one['hyperfine'] / 1e6:.1f} ms"
      f" (the fixed cost per run, one sample included)")
print(f"CPU per sample at {n}: tare {mean(cpu['tare']) / 1e3:.0f} us, hyperfine {mean(cpu['hyperfine']) / 1e3:.0f} us,"
      f" ratio {mean(cpu['tare']) / mean(cpu['hyperfine']):.2f}")
print(f"the harness's own CPU per sample at {n} (CPU less the program's as each tool measured it): tare"
      f" {mean(own['tare']) / 1e3:.0f} us, hyperfine {mean(own['hyperfine']) / 1e3:.0f} us,"
      f" ratio {mean(own['tare']) / mean(own['hyperfine']):.2f}; per added sample (median of rounds): tare"
      f" {med(own_marginal['tare']) / 1e3:.0f} us, hyperfine {med(own_marginal['hyperfine']) / 1e3:.0f} us,"
      f" ratio {med(own_marginal['tare']) / med(own_marginal['hyperfine']):.2f}")
for name in tools:
    if name not in ("tare", "hyperfine"):
        print(f"{name}: {mean(wall[name]) / 1e6:.3f} ms per sample at {n}, ratio to hyperfine"
              f" {mean(wall[name]) / mean(wall['hyperfine']):.2f} (at {long_n}: {mean(wall_long[name]) / mean(wall_long['hyperfine']):.2f}); marginal {marginal[name] / 1e6:.3f} ms"
              f" (ratio {marginal[name] / marginal['hyperfine']:.2f}); one-sample run {one[name] / 1e6:.1f} ms; CPU {mean(cpu[name]) / 1e3:.0f} us")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
