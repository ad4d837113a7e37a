#!/usr/bin/env bash
# REST throughput and latency of `rpckit gateway` against a grpc-gateway
# build (its generated proxy of the same proto) in front of one echo
# upstream: unary POST /v1/echo of the Medium fixture message as JSON
# (about 8 KB), `rpckit bench` closed loop, HTTP/1.1 keep-alive, C calls in
# flight for DURATION, RUNS runs of each, alternating. Prints each run, the
# medians, and the ratios ours/theirs.
#
#   bench/gateway_vs_grpc_gateway.sh      (RUNS=3 DURATION=10s C=48 WARMUP=2s UPSTREAM_CORE=1)
#
# Process layout, the same for both gateways: the client on core 0; the
# gateway under test on core 1 (GOMAXPROCS follows the affinity); the
# upstream, a separate process shared by both gateways, on UPSTREAM_CORE:
# 1 (the default) makes each gateway share its core with the upstream's
# work alike, 0 leaves the gateway's core to the gateway alone and puts the
# upstream beside the client. The idle gateway waits on core 1 too. grpc-gateway runs with its default ServeMux
# (its default marshaler emits unpopulated fields; Medium sets them all).
# Loopback only; every process is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
C=${C:-48}
WARMUP=${WARMUP:-2s}

bench_init
build cmd/rpckit bench/internal/gwbench
"$tmp/gwbench" medium > "$tmp/medium.json"

start "$tmp/upstream.out" taskset -c "${UPSTREAM_CORE:-1}" "$tmp/gwbench" upstream
up=$(wait_for "$tmp/upstream.out" '127\.0\.0\.1:[0-9]+')
start "$tmp/ours.out" taskset -c 1 "$tmp/rpckit" gateway --upstream "$up" --plaintext --listen 127.0.0.1:0 \
  --quiet --reload 0
declare -A url
url[ours]=$(wait_for "$tmp/ours.out" 'http://127\.0\.0\.1:[0-9]+')
start "$tmp/theirs.out" taskset -c 1 "$tmp/gwbench" grpc-gateway -upstream "$up"
url[theirs]=http://$(wait_for "$tmp/theirs.out" '127\.0\.0\.1:[0-9]+')

# run NAME RUN: one measured run of the gateway NAME.
run() { http_run "$1" "${url[$1]}/v1/echo" "$2"; }
alternate "$RUNS" run

closed_loop_table "POST /v1/echo, Medium JSON, closed loop c=$C, $DURATION x $RUNS runs, HTTP/1.1 keep-alive, gateway on one core" \
  "rpckit gateway" "grpc-gateway" "throughput >= 3x, p99 < 1x"
