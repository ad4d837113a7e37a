#!/usr/bin/env bash
# Times `rpckit call --protocol connect` against `buf curl` on the same
# local connect-go server: a unary call described by a protoset, over
# HTTP/1.1 and over h2c, with the proto and json codecs. Prints the median
# wall time of each over N runs and the ratio rpckit/buf.
#
#   bench/call_vs_bufcurl.sh [N]      (default N=30)
#
# Loopback only; the server is stopped on exit. buf comes from make deps
# (the rpckit cache's bin/buf, installed there when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
N=${1:-30}
buf=${RPCKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rpckit}/bin/buf
[ -x "$buf" ] || make -s deps >/dev/null
bench_init
build cmd/rpckit bench/internal/testserver
go run ./bench/internal/protoset "$tmp/test.protoset"

start "$tmp/addr" "$tmp/testserver" -connect
addr=$(wait_for "$tmp/addr" '127\.0\.0\.1:[0-9]+')
req='{"item":{"name":"bench","id":"1"},"number":7}'
method=rpckit.test.v1.Test/Echo

printf '%-26s %12s %12s %8s\n' case "rpckit ms" "buf curl ms" ratio
row "connect proto, HTTP/1.1" \
  "$tmp/rpckit" call --protocol connect --plaintext --protoset "$tmp/test.protoset" "$addr" "$method" -d "$req" \
  vs "$buf" curl --schema "$tmp/test.protoset#format=binpb" --protocol connect -d "$req" "http://$addr/$method"
row "connect proto, h2c" \
  "$tmp/rpckit" call --protocol connect --http2-prior-knowledge --plaintext --protoset "$tmp/test.protoset" "$addr" "$method" -d "$req" \
  vs "$buf" curl --schema "$tmp/test.protoset#format=binpb" --protocol connect --http2-prior-knowledge -d "$req" "http://$addr/$method"
row "rpckit json codec, h2c" \
  "$tmp/rpckit" call --protocol connect --codec json --http2-prior-knowledge --plaintext --protoset "$tmp/test.protoset" "$addr" "$method" -d "$req" \
  vs "$buf" curl --schema "$tmp/test.protoset#format=binpb" --protocol connect --http2-prior-knowledge -d "$req" "http://$addr/$method"
echo "($N runs each; target: ratio <= 0.80)"
