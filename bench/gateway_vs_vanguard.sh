#!/usr/bin/env bash
# Throughput, latency and CPU of `rpckit gateway` against Vanguard
# (connectrpc.com/vanguard, its transcoder in front of a reverse proxy) in
# front of one grpc-go echo upstream (bench/internal/gwbench upstream,
# rpckit.gwtest.v1.Everything/Echo): unary calls of the Medium fixture
# message (about 6 KB in proto, 8.5 KB in JSON) as
#   rest           POST /v1/echo, JSON
#   connect-json   POST /rpckit.gwtest.v1.Everything/Echo, Connect, JSON
#   connect-proto  the same, Connect, proto
# `rpckit bench` closed loop, HTTP/1.1 keep-alive, C calls in flight for
# DURATION, RUNS runs of each, the two gateways alternating; no
# compression (Accept-Encoding: identity). Prints each run, the medians,
# and the ratios ours/theirs, and fails if any call failed.
#
#   bench/gateway_vs_vanguard.sh      (RUNS=3 DURATION=5s C=16 WARMUP=1s)
#
# Process layout, the same for both gateways: the gateway under test and
# the client share core 0 (GOMAXPROCS follows the affinity), the upstream
# has core 1. The idle gateway waits on core 0 too. A gateway's CPU per
# request is its process's user+system time over the run (from
# /proc/PID/stat) divided by the calls the client made. Loopback only;
# every process is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
DURATION=${DURATION:-5s}
C=${C:-16}
WARMUP=${WARMUP:-1s}
MODES=${MODES:-rest connect-json connect-proto}

bench_init
build cmd/rpckit bench/internal/gwbench
"$tmp/gwbench" medium > "$tmp/medium.json"
"$tmp/gwbench" medium -proto > "$tmp/medium.pb"

start "$tmp/upstream.out" taskset -c 1 "$tmp/gwbench" upstream
up=$(wait_for "$tmp/upstream.out" '127\.0\.0\.1:[0-9]+')
declare -A pid url
start "$tmp/ours.out" taskset -c 0 "$tmp/rpckit" gateway --upstream "$up" --plaintext --listen 127.0.0.1:0 \
  --quiet --reload 0
pid[ours]=$!
url[ours]=$(wait_for "$tmp/ours.out" 'http://127\.0\.0\.1:[0-9]+')
start "$tmp/theirs.out" taskset -c 0 "$tmp/gwbench" vanguard -upstream "$up"
pid[theirs]=$!
url[theirs]=http://$(wait_for "$tmp/theirs.out" '127\.0\.0\.1:[0-9]+')

# cpu PID: the process's user+system time so far, in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# bench NAME MODE RUN: one measured run; its JSON report in
# $tmp/NAME.MODE.RUN.json, the gateway's CPU ticks over it in .cpu.
bench() {
  local path=/v1/echo body=@"$tmp/medium.json" hdr=(--http-header 'Content-Type: application/json')
  case $2 in
    connect-json) path=/rpckit.gwtest.v1.Everything/Echo hdr+=(--http-header 'Connect-Protocol-Version: 1') ;;
    connect-proto) path=/rpckit.gwtest.v1.Everything/Echo body=@"$tmp/medium.pb"
      hdr=(--http-header 'Content-Type: application/proto' --http-header 'Connect-Protocol-Version: 1') ;;
  esac
  local before
  before=$(cpu "${pid[$1]}")
  taskset -c 0 "$tmp/rpckit" bench -c "$C" --duration "$DURATION" --warmup "$WARMUP" \
    -X POST --body "$body" "${hdr[@]}" --http-header 'Accept-Encoding: identity' \
    --expect-status 200 --format json -o "$tmp/$1.$2.$3.json" "${url[$1]}$path"
  echo $(( $(cpu "${pid[$1]}") - before )) > "$tmp/$1.$2.$3.cpu"
}

for mode in $MODES; do
  alternate "$RUNS" bench "$mode"
done

python3 - "$tmp" "$RUNS" "$C" "$DURATION" "$(getconf CLK_TCK)" $MODES <<'PY'
import json, statistics, sys
tmp, runs, c, duration, hz, modes = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6:]

def load(name, mode, run):
    d = json.load(open(f"{tmp}/{name}.{mode}.{run}.json"))
    p = {x["percentile"]: x["ms"] for x in d["latency"]["percentiles"]}
    ticks = int(open(f"{tmp}/{name}.{mode}.{run}.cpu").read())
    # The warm-up's calls are not in calls; its CPU is: count them at the
    # measured rate (a slight overstatement of CPU per call, both alike).
    span = d["duration_ms"] / 1000
    return {"rps": d["rps"], "p50": p[50], "p99": p[99], "errors": d["errors"], "calls": d["calls"],
            "cpu_us": ticks / hz * 1e6 / max(d["calls"], 1), "span": span}

label = {"ours": "rpckit gateway", "theirs": "vanguard"}
failed = False
print(f"unary Echo of Medium, closed loop c={c}, {duration} x {runs} runs, HTTP/1.1 keep-alive,")
print("gateway and client on core 0, upstream on core 1; CPU per call includes the warm-up's share")
for mode in modes:
    rows = {n: [load(n, mode, r) for r in range(1, runs + 1)] for n in ("ours", "theirs")}
    print(f"\n{mode}")
    print(f"{'gateway':<16} {'run':>4} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'cpu us/call':>12} {'errors':>7}")
    for n in ("ours", "theirs"):
        for i, r in enumerate(rows[n], 1):
            failed |= r["errors"] > 0 or r["calls"] == 0
            print(f"{label[n]:<16} {i:>4} {r['rps']:>9.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['cpu_us']:>12.0f} {r['errors']:>7}")
    med = {n: {k: statistics.median(r[k] for r in rows[n]) for k in ("rps", "p50", "p99", "cpu_us")} for n in rows}
    for n in ("ours", "theirs"):
        m = med[n]
        print(f"{label[n]:<16} {'med':>4} {m['rps']:>9.0f} {m['p50']:>8.2f} {m['p99']:>8.2f} {m['cpu_us']:>12.0f}")
    o, t = med["ours"], med["theirs"]
    print(f"ratio ours/theirs: throughput {o['rps']/t['rps']:.2f}x, p99 {o['p99']/t['p99']:.2f}x, "
          f"CPU per call {o['cpu_us']/t['cpu_us']:.2f}x  (target: >= 2x, < 1x, <= 0.5x)")
if failed:
    print("FAILED: calls failed or none were made; the figures above do not count", file=sys.stderr)
    sys.exit(1)
PY
