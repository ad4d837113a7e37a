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
N=${1:-30}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/rpckit-bench
mkdir -p "$cache/bin"
if [ ! -x "$cache/bin/grpcurl" ]; then
  GOBIN="$cache/bin" go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4
fi
tmp=$(mktemp -d)
go build -o "$tmp/rpckit" ./cmd/rpckit
go build -o "$tmp/testserver" ./bench/internal/testserver
go run ./bench/internal/protoset "$tmp/test.protoset"

"$tmp/testserver" > "$tmp/addr" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/addr" ] && break; sleep 0.1; done
addr=$(cat "$tmp/addr")
req='{"item":{"name":"bench","id":"1"},"number":7}'
method=rpckit.test.v1.Test/Echo

# median_ms CMD...: runs CMD N times (after one warm-up) and prints the
# median wall time in milliseconds.
median_ms() {
  "$@" > /dev/null
  for _ in $(seq "$N"); do
    s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.2f", m / 1000}'
}

printf '%-22s %12s %12s %8s\n' case "rpckit ms" "grpcurl ms" ratio
row() {
  local name=$1 r g
  r=$(median_ms "${@:2:$(( $# / 2 ))}")
  shift $(( $# / 2 + 1 ))
  g=$(median_ms "$@")
  printf '%-22s %12s %12s %8.2f\n' "$name" "$r" "$g" "$(echo "$r / $g" | bc -l)"
}
row "unary, reflection" \
  "$tmp/rpckit" call --plaintext "$addr" "$method" -d "$req" \
  "$cache/bin/grpcurl" -plaintext -d "$req" "$addr" "$method"
row "unary, protoset" \
  "$tmp/rpckit" call --plaintext --protoset "$tmp/test.protoset" "$addr" "$method" -d "$req" \
  "$cache/bin/grpcurl" -plaintext -protoset "$tmp/test.protoset" -d "$req" "$addr" "$method"
echo "($N runs each; target: ratio <= 0.80)"
