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
RUNS=${1:-3}
SECS=${2:-10}
INFLIGHT=${3:-16}
tmp=$(mktemp -d)
go build -o "$tmp/rpckit" ./cmd/rpckit
go build -o "$tmp/thriftpeer" ./bench/internal/thriftpeer
go build -o "$tmp/cputime" ./bench/internal/cputime
"$tmp/thriftpeer" args "$tmp/echo.args"

taskset -c 1 "$tmp/thriftpeer" serve > "$tmp/addr" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/addr" ] && break; sleep 0.1; done
addr=$(cat "$tmp/addr")
echo "uptime before: $(uptime)"

# client NAME RUN CMD...: runs CMD pinned to CPU 0 under cputime; appends
# "NAME RUN CPU_SECONDS CALLS RPS ERRORS" to results.
client() {
  local name=$1 run=$2
  shift 2
  taskset -c 0 "$tmp/cputime" "$tmp/cpu" "$@" > "$tmp/out.json"
  python3 - "$name" "$run" "$tmp/cpu" "$tmp/out.json" >> "$tmp/results" <<'PY'
import json, sys
name, run, cpu, out = sys.argv[1:]
user, sys_ = map(float, open(cpu).read().split())
d = json.load(open(out))
print(name, run, user + sys_, d["calls"], d["rps"], d["errors"])
PY
}

for run in $(seq "$RUNS"); do
  client rpckit "$run" "$tmp/rpckit" bench --idl thrift/testdata/bench.thrift -c "$INFLIGHT" --duration "${SECS}s" \
    --format json --body-file "$tmp/echo.args" "$addr" BenchService.Echo
  client apache "$run" "$tmp/thriftpeer" client "$addr" "$INFLIGHT" "$SECS"
done

echo
echo "Echo(Small), framed binary, closed loop, $INFLIGHT in flight on $INFLIGHT connections, $SECS s, medians of $RUNS runs (client on CPU 0, server on CPU 1):"
python3 - "$tmp/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, run, cpu, calls, rps, errors = line.split()
    rows.setdefault(name, []).append((float(cpu), int(calls), float(rps), int(errors)))
def med(name, f):
    return statistics.median(f(r) for r in rows[name])
cpu_per_k = lambda r: r[0] * 1e6 / r[1]  # ms per 1,000 calls
labels = {"rpckit": "rpckit bench --idl", "apache": "Apache Go client loop"}
print(f"{'client':<22} {'CPU ms/1k calls':>16} {'req/s':>10} {'errors':>7} {'CPU vs Apache':>14}  runs (ms/1k)")
base = med("apache", cpu_per_k)
for name in ("rpckit", "apache"):
    c = med(name, cpu_per_k)
    runs = " ".join(f"{cpu_per_k(r):.2f}" for r in rows[name])
    print(f"{labels[name]:<22} {c:>16.2f} {med(name, lambda r: r[2]):>10.0f} {max(r[3] for r in rows[name]):>7} {c / base:>13.3f}x  {runs}")
ours, rate_ok = med("rpckit", cpu_per_k), med("rpckit", lambda r: r[2]) >= med("apache", lambda r: r[2])
print(f"target: rpckit <= 0.5x the Apache client's CPU per call at equal or higher req/s: "
      f"{'met' if ours <= base / 2 and rate_ok else 'MISSED'} ({ours / base:.3f}x, req/s {'>=' if rate_ok else '<'} Apache's)")
PY
echo "uptime after: $(uptime)"
