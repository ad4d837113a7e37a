#!/usr/bin/env bash
# Client CPU per call of rpckit bench's two gRPC engines against ghz, and
# the lean engine's rate accuracy in open loop.
#
#   bench/engines_vs_ghz.sh [RUNS] [SECONDS]      (default 3 runs of 10 s)
#
# One grpc-go server (bench/internal/testserver: health, reflection) runs
# pinned to CPU 1; each client runs pinned to CPU 0, closed loop with 48
# calls in flight on one connection, against grpc.health.v1.Health/Check:
# rpckit --engine lean, rpckit --engine grpc, and ghz v0.121.0 with
# templating off. The clients take turns within each run. CPU time is the
# child's user+system time from getrusage (bench/internal/cputime), start-up
# included for every tool; calls are what each tool counted. The table has
# the medians over the runs and the ratios to ghz.
#
# Then the lean engine in open loop at 1k, 5k, 10k and 20k calls/s for
# 5 s each (after 1 s of warm-up): the rate achieved, taken from the
# per-second series of calls completed, against the target.
#
# Loopback only; the server is stopped on exit. Needs taskset, python3,
# and network access once, to install ghz into the cache.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${1:-3}
SECS=${2:-10}
INFLIGHT=48
METHOD=grpc.health.v1.Health/Check
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rpckit-bench
mkdir -p "$cache/bin"
ghz=$(command -v ghz || true)
if [ -z "$ghz" ]; then
  ghz=$cache/bin/ghz
  [ -x "$ghz" ] || GOBIN="$cache/bin" go install github.com/bojand/ghz/cmd/ghz@v0.121.0
fi
bench_init
build cmd/rpckit bench/internal/testserver bench/internal/cputime

start "$tmp/addr" taskset -c 1 "$tmp/testserver"
addr=$(wait_for "$tmp/addr" '127\.0\.0\.1:[0-9]+')
echo "uptime before: $(uptime)"

for run in $(seq "$RUNS"); do
  client lean "$run" "$tmp/rpckit" bench --engine lean --plaintext -c $INFLIGHT --duration ${SECS}s --format json "$addr" $METHOD
  client grpc "$run" "$tmp/rpckit" bench --engine grpc --plaintext -c $INFLIGHT --duration ${SECS}s --format json "$addr" $METHOD
  client ghz "$run" "$ghz" --insecure --call $METHOD --disable-template-functions --disable-template-data \
    -c $INFLIGHT --connections 1 -z ${SECS}s -d '{}' -O json "$addr"
done

echo
echo "Closed loop, $INFLIGHT in flight, $SECS s, medians of $RUNS runs (client on CPU 0, server on CPU 1):"
cpu_table ghz lean="rpckit --engine lean" grpc="rpckit --engine grpc" ghz="ghz v0.121.0"
python3 - "$tmp/medians" <<'PY'
import sys
med = {name: float(cpu) for name, cpu, _ in (line.split() for line in open(sys.argv[1]))}
lean, base = med["lean"], med["ghz"]
print(f"targets: lean <= 10 ms per 1,000 calls: {'met' if lean <= 10 else 'MISSED'} ({lean:.2f});"
      f" lean <= 1/4 of ghz: {'met' if lean <= base / 4 else 'MISSED'} (1/{base / lean:.1f})")
PY

echo
echo "Open loop, rpckit --engine lean, 5 s per rate after 1 s of warm-up:"
printf '%-8s %10s %8s %9s %9s %10s\n' target achieved error "not sent" "cut off" "mean lag"
for rate in 1000 5000 10000 20000; do
  taskset -c 0 "$tmp/rpckit" bench --engine lean --plaintext --rate $rate --warmup 1s --duration 5s --format json "$addr" $METHOD > "$tmp/rate.json"
  python3 - "$rate" "$tmp/rate.json" <<'PY'
import json, sys
target, d = float(sys.argv[1]), json.load(open(sys.argv[2]))
full = [p for p in d["series"] if p["length_ms"] >= 999]
achieved = sum(p["calls"] for p in full) / (sum(p["length_ms"] for p in full) / 1000)
print(f"{target:<8.0f} {achieved:>10.1f} {100 * (achieved - target) / target:>+7.2f}% {d['not_sent']:>9} {d['cut_off']:>9} {d['mean_lag_ms']:>8.3f}ms")
PY
done
echo "(achieved: calls completed per second over the whole seconds of the run; target: within 1%)"
echo "uptime after: $(uptime)"
