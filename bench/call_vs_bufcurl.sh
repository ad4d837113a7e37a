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
N=${1:-30}
buf=${RPCKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rpckit}/bin/buf
[ -x "$buf" ] || make -s deps >/dev/null
tmp=$(mktemp -d)
go build -o "$tmp/rpckit" ./cmd/rpckit
go build -o "$tmp/testserver" ./bench/internal/testserver
go run ./bench/internal/protoset "$tmp/test.protoset"

"$tmp/testserver" -connect > "$tmp/addr" &
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

printf '%-26s %12s %12s %8s\n' case "rpckit ms" "buf curl ms" ratio
# row NAME RPCKIT-ARGS... vs BUF-ARGS...
row() {
  local name=$1 r b
  shift
  local -a mine=() theirs=()
  while [ "$1" != vs ]; do mine+=("$1"); shift; done
  shift
  theirs=("$@")
  r=$(median_ms "${mine[@]}")
  b=$(median_ms "${theirs[@]}")
  printf '%-26s %12s %12s %8.2f\n' "$name" "$r" "$b" "$(echo "$r / $b" | bc -l)"
}
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
