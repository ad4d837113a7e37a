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
source bench/lib.sh
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
C=${C:-48}
WARMUP=${WARMUP:-2s}

bench_init
build cmd/rpckit bench/internal/tgwbench
"$tmp/tgwbench" medium > "$tmp/medium.json"

start "$tmp/upstream.out" taskset -c "${UPSTREAM_CORE:-1}" "$tmp/tgwbench" upstream
up=$(wait_for "$tmp/upstream.out" '127\.0\.0\.1:[0-9]+')
start "$tmp/ours.out" taskset -c 1 "$tmp/rpckit" gateway --idl thrift/testdata/bench.thrift --upstream "thrift://$up" \
  --listen 127.0.0.1:0 --quiet --reload 0
declare -A url
url[ours]=$(wait_for "$tmp/ours.out" 'http://127\.0\.0\.1:[0-9]+')
start "$tmp/theirs.out" taskset -c 1 "$tmp/tgwbench" apache-gateway -upstream "$up"
url[theirs]=http://$(wait_for "$tmp/theirs.out" '127\.0\.0\.1:[0-9]+')

# run NAME RUN: one measured run of the gateway NAME.
run() { http_run "$1" "${url[$1]}/v1/medium" "$2"; }
alternate "$RUNS" run

closed_loop_table "POST /v1/medium (PutMedium), Medium JSON, closed loop c=$C, $DURATION x $RUNS runs, HTTP/1.1 keep-alive, gateway on one core" \
  "rpckit gateway" "apache+json" "throughput >= 2x, p99 <= 1x"
