# Shell functions the benchmark scripts share; sourced after `cd` to the
# repository's root, never run:
#
#   source bench/lib.sh
#
# bench_init makes $tmp and stops, on exit, every process started with
# start; build, start and wait_for bring the programs up; alternate runs
# the two sides of a comparison in turns; http_run, closed_loop_table,
# median_ms, row, client and cpu_table measure and print.

# bench_init: a temporary directory in $tmp, removed on exit, when every
# process start started is stopped too.
bench_init() {
  tmp=$(mktemp -d)
  pids=()
  trap bench_cleanup EXIT
}

bench_cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}

# build PKG...: go build ./PKG into $tmp, named after its last element.
build() {
  for p in "$@"; do go build -o "$tmp/${p##*/}" "./$p"; done
}

# start FILE CMD...: runs CMD in the background, its output (stdout and
# stderr) in FILE, and stops it on exit; its pid is $!.
start() {
  local out=$1
  shift
  "$@" > "$out" 2>&1 &
  pids+=($!)
}

# wait_for FILE PATTERN: the first match of PATTERN in FILE, within 10 s.
wait_for() {
  for _ in $(seq 100); do
    if grep -qoE "$2" "$1" 2>/dev/null; then grep -oE "$2" "$1" | head -1; return; fi
    sleep 0.1
  done
  echo "no $2 in $1" >&2; cat "$1" >&2; exit 1
}

# alternate RUNS FN ARGS...: RUNS runs of `FN ours ARGS... RUN` and
# `FN theirs ARGS... RUN`, ours first in odd runs, theirs in even ones.
alternate() {
  local runs=$1 fn=$2 run
  shift 2
  for run in $(seq "$runs"); do
    if (( run % 2 )); then
      "$fn" ours "$@" "$run"; "$fn" theirs "$@" "$run"
    else
      "$fn" theirs "$@" "$run"; "$fn" ours "$@" "$run"
    fi
  done
}

# http_run NAME URL RUN: one measured run of `rpckit bench` on core 0,
# closed loop, $C calls in flight for $DURATION after $WARMUP, POST of
# $tmp/medium.json as JSON; its JSON report in $tmp/NAME.RUN.json.
http_run() {
  taskset -c 0 "$tmp/rpckit" bench -c "$C" --duration "$DURATION" --warmup "$WARMUP" \
    -X POST --body @"$tmp/medium.json" --http-header 'Content-Type: application/json' \
    --expect-status 200 --format json -o "$tmp/$1.$3.json" "$2"
}

# closed_loop_table TITLE OURS THEIRS TARGET: the runs of http_run for
# ours and theirs (labelled OURS and THEIRS), their medians and the ratios
# ours/theirs, TARGET after them; fails if a call failed or none was made.
closed_loop_table() {
  python3 - "$tmp" "$RUNS" "$@" <<'PY'
import json, statistics, sys
tmp, runs, title, ours, theirs, target = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]

def load(name, run):
    d = json.load(open(f"{tmp}/{name}.{run}.json"))
    p = {x["percentile"]: x["ms"] for x in d["latency"]["percentiles"]}
    return {"rps": d["rps"], "p50": p[50], "p99": p[99], "errors": d["errors"], "calls": d["calls"]}

rows = {n: [load(n, r) for r in range(1, runs + 1)] for n in ("ours", "theirs")}
label = {"ours": ours, "theirs": theirs}
print(title)
print(f"{'gateway':<16} {'run':>4} {'req/s':>10} {'p50 ms':>9} {'p99 ms':>9} {'errors':>7}")
for n in ("ours", "theirs"):
    for i, r in enumerate(rows[n], 1):
        print(f"{label[n]:<16} {i:>4} {r['rps']:>10.0f} {r['p50']:>9.2f} {r['p99']:>9.2f} {r['errors']:>7}")
med = {n: {k: statistics.median(r[k] for r in rows[n]) for k in ("rps", "p50", "p99")} for n in rows}
for n in ("ours", "theirs"):
    m = med[n]
    print(f"{label[n]:<16} {'med':>4} {m['rps']:>10.0f} {m['p50']:>9.2f} {m['p99']:>9.2f}")
o, t = med["ours"], med["theirs"]
print(f"ratio ours/theirs: throughput {o['rps']/t['rps']:.2f}x, p50 {o['p50']/t['p50']:.2f}x, p99 {o['p99']/t['p99']:.2f}x"
      f"  (target: {target})")
if any(r["errors"] > 0 or r["calls"] == 0 for n in rows for r in rows[n]):
    print("FAILED: calls failed or none were made; the figures above do not count", file=sys.stderr)
    sys.exit(1)
PY
}

# median_ms CMD...: runs CMD $N times (after one warm-up) and prints the
# median wall time in milliseconds.
median_ms() {
  "$@" > /dev/null
  for _ in $(seq "$N"); do
    s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.2f", m / 1000}'
}

# row NAME OURS... vs THEIRS...: the median wall times of the two commands
# and their ratio, in columns under a header such as
#   printf '%-26s %12s %12s %8s\n' case "rpckit ms" "theirs ms" ratio
row() {
  local name=$1 r t
  shift
  local -a ours=()
  while [ "$1" != vs ]; do ours+=("$1"); shift; done
  shift
  r=$(median_ms "${ours[@]}")
  t=$(median_ms "$@")
  printf '%-26s %12s %12s %8.2f\n' "$name" "$r" "$t" "$(echo "$r / $t" | bc -l)"
}

# client NAME RUN CMD...: runs CMD on core 0 under bench/internal/cputime
# (built into $tmp) and appends "NAME RUN CPU_SECONDS CALLS RPS ERRORS" to
# $tmp/results, from CMD's JSON report: rpckit bench's, or ghz's.
client() {
  local name=$1 run=$2
  shift 2
  taskset -c 0 "$tmp/cputime" "$tmp/cpu" "$@" > "$tmp/out.json"
  python3 - "$name" "$run" "$tmp/cpu" "$tmp/out.json" >> "$tmp/results" <<'PY'
import json, sys
name, run, cpu, out = sys.argv[1:]
user, sys_ = map(float, open(cpu).read().split())
d = json.load(open(out))
if "count" in d:  # ghz
    calls, rps = d["count"], d["rps"]
    errors = sum(v for k, v in d.get("statusCodeDistribution", {}).items() if k != "OK")
else:             # rpckit, or a client printing the same keys
    calls, rps, errors = d["calls"], d["rps"], d["errors"]
print(name, run, user + sys_, calls, rps, errors)
PY
}

# cpu_table BASE NAME=LABEL...: the medians of $tmp/results per client, in
# the order given: CPU per 1,000 calls, req/s, errors, CPU against BASE's,
# and each run's CPU; then the medians again as "NAME CPU_MS_PER_1K RPS"
# lines in $tmp/medians, for the script's targets.
cpu_table() {
  python3 - "$tmp/results" "$tmp/medians" "$@" <<'PY'
import statistics, sys
results, medians, base_name, *pairs = sys.argv[1:]
labels = dict(p.split("=", 1) for p in pairs)
rows = {}
for line in open(results):
    name, run, cpu, calls, rps, errors = line.split()
    rows.setdefault(name, []).append((float(cpu), int(calls), float(rps), int(errors)))
def med(name, f):
    return statistics.median(f(r) for r in rows[name])
cpu_per_k = lambda r: r[0] * 1e6 / max(r[1], 1)  # ms per 1,000 calls
width = max(len(l) for l in labels.values()) + 2
vs = f"CPU vs {labels[base_name].split()[0]}"
print(f"{'client':<{width}} {'CPU ms/1k calls':>16} {'req/s':>10} {'errors':>7} {vs:>14}  runs (ms/1k)")
base = med(base_name, cpu_per_k)
with open(medians, "w") as out:
    for name in labels:
        c, rps = med(name, cpu_per_k), med(name, lambda r: r[2])
        runs = " ".join(f"{cpu_per_k(r):.2f}" for r in rows[name])
        print(f"{labels[name]:<{width}} {c:>16.2f} {rps:>10.0f} {max(r[3] for r in rows[name]):>7} {c / base:>13.3f}x  {runs}")
        print(name, c, rps, file=out)
PY
}
