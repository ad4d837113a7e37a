#!/usr/bin/env bash
# Client CPU per call of rpckit bench against vegeta for an HTTP target in
# open loop, and the latency each reports.
#
#   bench/http_vs_vegeta.sh [RUNS] [SECONDS] [RATE]   (default 3 runs of 10 s at 1000/s)
#
# One HTTP/1.1 server (bench/internal/testserver -http: 200 "ok") runs
# pinned to CPU 1; each client runs pinned to CPU 0 at RATE calls/s for
# SECONDS: rpckit bench --rate, and vegeta v12.13.0 attack (its results
# written to a file, as it does; the report is made afterwards, untimed).
# They take turns within each run. CPU time is the child's user+system
# time from getrusage (bench/internal/cputime), start-up included. The
# table has the medians over the runs and rpckit's CPU per call as a
# fraction of vegeta's; the target is at most half.
#
# Loopback only; the server is stopped on exit. Needs taskset, python3,
# and network access once, to install vegeta into the cache.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
SECS=${2:-10}
RATE=${3:-1000}
bin=${XDG_CACHE_HOME:-$HOME/.cache}/rpckit/bin
vegeta=$bin/vegeta
[ -x "$vegeta" ] || GOBIN="$bin" go install github.com/tsenart/vegeta/v12@v12.13.0
tmp=$(mktemp -d)
go build -o "$tmp/rpckit" ./cmd/rpckit
go build -o "$tmp/testserver" ./bench/internal/testserver
go build -o "$tmp/cputime" ./bench/internal/cputime

taskset -c 1 "$tmp/testserver" -http > "$tmp/addr" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ "$(wc -l < "$tmp/addr")" -ge 2 ] && break; sleep 0.1; done
url=$(sed -n 2p "$tmp/addr")
echo "uptime before: $(uptime)"

for run in $(seq "$RUNS"); do
  taskset -c 0 "$tmp/cputime" "$tmp/cpu" "$tmp/rpckit" bench --rate "$RATE" --duration "${SECS}s" \
    --format json "$url/ok" > "$tmp/rpckit.json"
  python3 - rpckit "$run" "$tmp/cpu" "$tmp/rpckit.json" >> "$tmp/results" <<'PY'
import json, sys
name, run, cpu, out = sys.argv[1:]
user, sys_ = map(float, open(cpu).read().split())
d = json.load(open(out))
pct = {p["percentile"]: p["ms"] for p in d["latency"]["percentiles"]}
print(name, run, user + sys_, d["calls"], d["rps"], d["errors"], pct[50], pct[99])
PY
  echo "GET $url/ok" > "$tmp/targets"
  taskset -c 0 "$tmp/cputime" "$tmp/cpu" "$vegeta" attack -targets "$tmp/targets" -rate "$RATE/s" \
    -duration "${SECS}s" -output "$tmp/vegeta.bin"
  "$vegeta" report -type json "$tmp/vegeta.bin" > "$tmp/vegeta.json"
  python3 - vegeta "$run" "$tmp/cpu" "$tmp/vegeta.json" >> "$tmp/results" <<'PY'
import json, sys
name, run, cpu, out = sys.argv[1:]
user, sys_ = map(float, open(cpu).read().split())
d = json.load(open(out))
errors = d["requests"] - round(d["requests"] * d["success"])
lat = d["latencies"]  # nanoseconds
print(name, run, user + sys_, d["requests"], d["throughput"], errors, lat["50th"] / 1e6, lat["99th"] / 1e6)
PY
done

echo
echo "Open loop at $RATE calls/s over HTTP/1.1, $SECS s, medians of $RUNS runs (client on CPU 0, server on CPU 1):"
python3 - "$tmp/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, run, cpu, calls, rps, errors, p50, p99 = line.split()
    rows.setdefault(name, []).append((float(cpu), int(calls), float(rps), int(errors), float(p50), float(p99)))
def med(name, f):
    return statistics.median(f(r) for r in rows[name])
per_call = lambda r: r[0] * 1e6 / r[1]  # µs of CPU per call
print(f"{'client':<16} {'CPU µs/call':>12} {'req/s':>9} {'errors':>7} {'p50 ms':>8} {'p99 ms':>8}  runs (µs/call)")
labels = {"rpckit": "rpckit bench", "vegeta": "vegeta v12.13.0"}
for name in ("rpckit", "vegeta"):
    runs = " ".join(f"{per_call(r):.1f}" for r in rows[name])
    print(f"{labels[name]:<16} {med(name, per_call):>12.1f} {med(name, lambda r: r[2]):>9.1f} "
          f"{max(r[3] for r in rows[name]):>7} {med(name, lambda r: r[4]):>8.3f} {med(name, lambda r: r[5]):>8.3f}  {runs}")
ratio = med("rpckit", per_call) / med("vegeta", per_call)
print(f"target: rpckit CPU per call <= 1/2 of vegeta's: {'met' if ratio <= 0.5 else 'MISSED'} ({ratio:.2f}x)")
PY
echo "uptime after: $(uptime)"
