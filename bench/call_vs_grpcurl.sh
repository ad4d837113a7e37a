#!/usr/bin/env bash
# Times `rpckit call` against grpcurl on the same local server: a unary call
# found by reflection, and one described by a protoset. Prints the median
# wall time of each over N runs and the ratio rpckit/grpcurl.
#
#   bench/call_vs_grpcurl.sh [N]      (default N=30)
#
# Loopback only; the server is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
N=${1:-30}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rpckit-bench
mkdir -p "$cache/bin"
if [ ! -x "$cache/bin/grpcurl" ]; then
  GOBIN="$cache/bin" go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4
fi
bench_init
build cmd/rpckit bench/internal/testserver
go run ./bench/internal/protoset "$tmp/test.protoset"

start "$tmp/addr" "$tmp/testserver"
addr=$(wait_for "$tmp/addr" '127\.0\.0\.1:[0-9]+')
req='{"item":{"name":"bench","id":"1"},"number":7}'
method=rpckit.test.v1.Test/Echo

printf '%-26s %12s %12s %8s\n' case "rpckit ms" "grpcurl ms" ratio
row "unary, reflection" \
  "$tmp/rpckit" call --plaintext "$addr" "$method" -d "$req" \
  vs "$cache/bin/grpcurl" -plaintext -d "$req" "$addr" "$method"
row "unary, protoset" \
  "$tmp/rpckit" call --plaintext --protoset "$tmp/test.protoset" "$addr" "$method" -d "$req" \
  vs "$cache/bin/grpcurl" -plaintext -protoset "$tmp/test.protoset" -d "$req" "$addr" "$method"
echo "($N runs each; target: ratio <= 0.80)"
