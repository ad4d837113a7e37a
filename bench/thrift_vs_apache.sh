#!/usr/bin/env bash
# Client CPU per call of rpckit bench on a Thrift method against the Apache
# Thrift Go library's generated client calling the same method in a loop.
#
#   bench/thrift_vs_apache.sh [RUNS] [SECONDS] [IN_FLIGHT]   (default 3 runs of 10 s, 16)
#
# One Apache Go server of thrift/testdata/bench.thrift's BenchService
# (bench/internal/thriftpeer, framed binary) runs pinned to CPU 1; each
# client runs pinned to CPU 0, closed loop, IN_FLIGHT calls in flight on as
# many connections, calling Echo with the Small specimen (about 150 bytes):
# rpckit bench --idl, and thriftpeer's loop of IN_FLIGHT goroutines, each
# with a connection and a generated BenchServiceClient. The clients take
# turns within each run. CPU time is the child's user+system time from
# getrusage (bench/internal/cputime), start-up included; calls are what
# each client counted. The table has the medians over the runs and the
# ratio to the Apache client; the target is rpckit <= 0.5x its CPU per call
# at equal or higher throughput.
#
# Loopback only; the server is stopped on exit. Needs taskset and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${1:-3}
SECS=${2:-10}
INFLIGHT=${3:-16}
bench_init
build cmd/rpckit bench/internal/thriftpeer bench/internal/cputime
"$tmp/thriftpeer" args "$tmp/echo.args"

start "$tmp/addr" taskset -c 1 "$tmp/thriftpeer" serve
addr=$(wait_for "$tmp/addr" '127\.0\.0\.1:[0-9]+')
echo "uptime before: $(uptime)"

for run in $(seq "$RUNS"); do
  client rpckit "$run" "$tmp/rpckit" bench --idl thrift/testdata/bench.thrift -c "$INFLIGHT" --duration "${SECS}s" \
    --format json --body-file "$tmp/echo.args" "$addr" BenchService.Echo
  client apache "$run" "$tmp/thriftpeer" client "$addr" "$INFLIGHT" "$SECS"
done

echo
echo "Echo(Small), framed binary, closed loop, $INFLIGHT in flight on $INFLIGHT connections, $SECS s, medians of $RUNS runs (client on CPU 0, server on CPU 1):"
cpu_table apache rpckit="rpckit bench --idl" apache="Apache Go client loop"
python3 - "$tmp/medians" <<'PY'
import sys
med = {name: (float(cpu), float(rps)) for name, cpu, rps in (line.split() for line in open(sys.argv[1]))}
(ours, ours_rps), (base, base_rps) = med["rpckit"], med["apache"]
rate_ok = ours_rps >= base_rps
print(f"target: rpckit <= 0.5x the Apache client's CPU per call at equal or higher req/s: "
      f"{'met' if ours <= base / 2 and rate_ok else 'MISSED'} ({ours / base:.3f}x, req/s {'>=' if rate_ok else '<'} Apache's)")
PY
echo "uptime after: $(uptime)"
