#!/usr/bin/env bash
# HTTP/JSON -> Thrift throughput and latency of `rpckit gateway --idl` against a
# gateway written with the Apache Thrift Go generated code and encoding/json
# (bench/internal/tgwbench apache-gateway), in front of one BenchService
# upstream (Apache Go library, framed binary): POST /v1/medium of the Medium
# specimen as JSON (about 7.5 KB) to PutMedium, which echoes it; `rpckit bench`
# closed loop, HTTP/1.1 keep-alive, C calls in flight for DURATION, RUNS runs
# of each, alternating. Prints each run, the medians, and the ratios
# ours/theirs.
#
#   bench/thrift_gateway_vs_apache.sh      (RUNS=3 DURATION=10s C=48 WARMUP=2s UPSTREAM_CORE=1)
#
# Process layout, the same for both gateways: the client on core 0; the
# gateway under test on core 1 (GOMAXPROCS follows the affinity); the
# upstream, a separate process shared by both gateways, on UPSTREAM_CORE.
# Loopback only; every process is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
C=${C:-48}
WARMUP=${WARMUP:-2s}

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/rpckit" ./cmd/rpckit
go build -o "$tmp/tgwbench" ./bench/internal/tgwbench
"$tmp/tgwbench" medium > "$tmp/medium.json"

# wait_for FILE PATTERN: the first match of PATTERN in FILE, within 10 s.
wait_for() {
  for _ in $(seq 100); do
    if grep -qoE "$2" "$1" 2>/dev/null; then grep -oE "$2" "$1" | head -1; return; fi
    sleep 0.1
  done
  echo "no $2 in $1" >&2; cat "$1" >&2; exit 1
}

taskset -c "${UPSTREAM_CORE:-1}" "$tmp/tgwbench" upstream > "$tmp/upstream.out" &
pids+=($!)
up=$(wait_for "$tmp/upstream.out" '127\.0\.0\.1:[0-9]+')
taskset -c 1 "$tmp/rpckit" gateway --idl thrift/testdata/bench.thrift --upstream "thrift://$up" \
  --listen 127.0.0.1:0 --quiet --reload 0 2> "$tmp/ours.out" &
pids+=($!)
ours=$(wait_for "$tmp/ours.out" 'http://127\.0\.0\.1:[0-9]+')
taskset -c 1 "$tmp/tgwbench" apache-gateway -upstream "$up" > "$tmp/theirs.out" &
pids+=($!)
theirs=http://$(wait_for "$tmp/theirs.out" '127\.0\.0\.1:[0-9]+')

# bench NAME URL RUN: one measured run, its JSON report in $tmp/NAME.RUN.json.
bench() {
  taskset -c 0 "$tmp/rpckit" bench -c "$C" --duration "$DURATION" --warmup "$WARMUP" \
    -X POST --body @"$tmp/medium.json" --http-header 'Content-Type: application/json' \
    --expect-status 200 --format json -o "$tmp/$1.$3.json" "$2/v1/medium"
}

for run in $(seq "$RUNS"); do
  if (( run % 2 )); then
    bench ours "$ours" "$run"; bench theirs "$theirs" "$run"
  else
    bench theirs "$theirs" "$run"; bench ours "$ours" "$run"
  fi
done

python3 - "$tmp" "$RUNS" "$C" "$DURATION" <<'EOF'
import json, statistics, sys
tmp, runs, c, duration = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def load(name, run):
    d = json.load(open(f"{tmp}/{name}.{run}.json"))
    p = {x["percentile"]: x["ms"] for x in d["latency"]["percentiles"]}
    return {"rps": d["rps"], "p50": p[50], "p99": p[99], "errors": d["errors"]}

rows = {n: [load(n, r) for r in range(1, runs + 1)] for n in ("ours", "theirs")}
label = {"ours": "rpckit gateway", "theirs": "apache+json"}
print(f"POST /v1/medium (PutMedium), Medium JSON, closed loop c={c}, {duration} x {runs} runs, HTTP/1.1 keep-alive, gateway on one core")
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
      "  (target: throughput >= 2x, p99 <= 1x)")
EOF
