#!/usr/bin/env bash
# The speed targets of the dynamic engine, the transcoder and the service
# runtime, each with the ratio measured now and whether it holds.
#
#   bench/targets.sh [ROUNDS] [RUNS]      (default 30 pairs of rounds, 3 runs)
#
# Each target compares rpckit's code with its baseline in the same process,
# the two in alternating rounds (internal/benchpair; for the interceptor
# chain, 100 ms rounds of 16 callers against a bare and a chained server),
# so that the machine's changing speed reaches both alike. Each run gives
# the median ratio of its rounds; the table has the median of the runs,
# and the lowest and highest.
#
#   dynamic    BenchmarkTargets: the Medium fixture against generated code
#   transcode  BenchmarkTargets: Small and Medium against protojson on
#              generated types, each baseline from the same input to the
#              same output (UnmarshalParse: against protojson.Unmarshal
#              alone, which stops short of the wire bytes)
#   thrift/dynamic BenchmarkTargets: the Thrift Medium specimen, binary and
#              compact, against the Apache Thrift generated code
#   thrift/transcode BenchmarkTargets: Thrift <-> JSON on Small, Medium and
#              Large, binary and compact, against the generated code with
#              encoding/json and against a generic map[string]any codec
#   interceptor BenchmarkChainCostPaired/server: unary echo calls/s with the
#              standard server chain over bare grpc-go; the links/ rows, the
#              cost of one link of it alone (header: a constant response
#              header, what any response metadata costs in grpc-go;
#              fresh-header: the same with a new value on every call)
#
# Loopback only. Prints the table; exits 0 whether the targets hold or not.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-30}
RUNS=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for pkg in dynamic transcode interceptor load; do
  go test -c -o "$tmp/$pkg.test" "./$pkg"
done
go test -c -o "$tmp/thrift-dynamic.test" ./thrift/dynamic
go test -c -o "$tmp/thrift-transcode.test" ./thrift/transcode
for run in $(seq "$RUNS"); do
  for pkg in dynamic transcode; do
    (cd "$pkg" && "$tmp/$pkg.test" -test.run '^$' -test.bench '^BenchmarkTargets$' \
      -test.benchtime "${ROUNDS}x") | awk -v pkg="$pkg" '
        /^BenchmarkTargets\// {
          name = $1; sub(/^BenchmarkTargets\//, "", name); sub(/-[0-9]+$/, "", name)
          for (i = 3; i < NF; i++) if ($(i+1) == "x") print pkg, name, $i
        }' >> "$tmp/ratios"
  done
  (cd thrift/dynamic && "$tmp/thrift-dynamic.test" -test.run '^$' \
    -test.bench '^BenchmarkTargets$/^(Get|Set|Delete|Keep|DOMLoad)$/^medium[.]' \
    -test.benchtime "${ROUNDS}x") | awk '
      /^BenchmarkTargets\// {
        name = $1; sub(/^BenchmarkTargets\//, "", name); sub(/-[0-9]+$/, "", name)
        for (i = 3; i < NF; i++) if ($(i+1) == "x") print "thrift/dynamic", name, $i
      }' >> "$tmp/ratios"
  (cd thrift/transcode && "$tmp/thrift-transcode.test" -test.run '^$' \
    -test.bench '^BenchmarkTargets$' -test.benchtime "${ROUNDS}x") | awk '
      /^BenchmarkTargets\// {
        name = $1; sub(/^BenchmarkTargets\//, "", name); sub(/-[0-9]+$/, "", name)
        for (i = 3; i < NF; i++) if ($(i+1) == "x") print "thrift/transcode", name, $i
      }' >> "$tmp/ratios"
  (cd interceptor && "$tmp/interceptor.test" -test.run '^$' \
    -test.bench '^BenchmarkChainCostPaired$/^(server|links)$' -test.benchtime "${ROUNDS}x") | awk '
      /^BenchmarkChainCostPaired\// {
        name = $1; sub(/^BenchmarkChainCostPaired\//, "", name); sub(/-[0-9]+$/, "", name)
        if (name == "server") name = "ChainCost"
        for (i = 3; i < NF; i++) if ($(i+1) == "chain/bare") print "interceptor", name, $i
      }' >> "$tmp/ratios"
  (cd load && "$tmp/load.test" -test.run '^$' -test.bench '^BenchmarkPacerLag$' -test.benchtime 1x) | awk '
    /^BenchmarkPacerLag\// {
      name = $1; sub(/^BenchmarkPacerLag\//, "", name); sub(/-[0-9]+$/, "", name)
      for (i = 3; i < NF; i++) {
        if ($(i+1) == "lag-p50-µs") p50 = $i
        if ($(i+1) == "lag-p99-µs") p99 = $i
        if ($(i+1) == "cpu-ns/call") cpu = $i
      }
      print name, p50, p99, cpu
    }' >> "$tmp/lags"
done

# target: package, name, how the ratio is read, the line it must reach.
cat > "$tmp/targets" <<'EOF'
dynamic Get faster 40
dynamic Set faster 20
dynamic Delete faster 20
dynamic Keep faster 3.5
dynamic DOMLoad faster 5
dynamic DOMSerialize faster 2.5
dynamic Validate faster 30
thrift/dynamic Get/medium.binary faster 20
thrift/dynamic Get/medium.compact faster 20
thrift/dynamic Set/medium.binary faster 10
thrift/dynamic Set/medium.compact faster 10
thrift/dynamic Delete/medium.binary faster 10
thrift/dynamic Delete/medium.compact faster 10
thrift/dynamic Keep/medium.binary faster 3
thrift/dynamic Keep/medium.compact faster 3
thrift/dynamic DOMLoad/medium.binary faster 2
thrift/dynamic DOMLoad/medium.compact faster 2
thrift/transcode ToJSON/small.binary faster 3
thrift/transcode ToJSON/small.compact faster 3
thrift/transcode ToJSON/medium.binary faster 3
thrift/transcode ToJSON/medium.compact faster 3
thrift/transcode ToJSON/large.binary faster 3
thrift/transcode ToJSON/large.compact faster 3
thrift/transcode ToJSONGeneric/small.binary faster 10
thrift/transcode ToJSONGeneric/small.compact faster 10
thrift/transcode ToJSONGeneric/medium.binary faster 10
thrift/transcode ToJSONGeneric/medium.compact faster 10
thrift/transcode ToJSONGeneric/large.binary faster 10
thrift/transcode ToJSONGeneric/large.compact faster 10
thrift/transcode FromJSON/small.binary faster 3
thrift/transcode FromJSON/small.compact faster 3
thrift/transcode FromJSON/medium.binary faster 3
thrift/transcode FromJSON/medium.compact faster 3
thrift/transcode FromJSON/large.binary faster 3
thrift/transcode FromJSON/large.compact faster 3
thrift/transcode FromJSONGeneric/small.binary faster 10
thrift/transcode FromJSONGeneric/small.compact faster 10
thrift/transcode FromJSONGeneric/medium.binary faster 10
thrift/transcode FromJSONGeneric/medium.compact faster 10
thrift/transcode FromJSONGeneric/large.binary faster 10
thrift/transcode FromJSONGeneric/large.compact faster 10
transcode Marshal/Small faster 8
transcode Marshal/Medium faster 11
transcode Unmarshal/Small faster 7
transcode Unmarshal/Medium faster 8
transcode UnmarshalParse/Small faster 7
transcode UnmarshalParse/Medium faster 8
interceptor ChainCost kept 0.90
interceptor links/request-id kept -
interceptor links/access-log kept -
interceptor links/metrics kept -
interceptor links/header kept -
interceptor links/fresh-header kept -
EOF

awk -v runs="$RUNS" '
  NR == FNR { got[$1 " " $2] = got[$1 " " $2] " " $3; next }
  {
    key = $1 " " $2
    n = split(got[key], v, " ")
    if (n == 0) { printf "%-16s %-32s no result\n", $1, $2; next }
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    if ($4 == "-") { # a part of a target, shown for what it costs
      printf "%-16s %-32s %-12s %-28s\n", $1, $2, "(part)",
        sprintf("cost %.1f%% (%.1f-%.1f)", (1 - med) * 100, (1 - v[n]) * 100, (1 - v[1]) * 100)
      next
    }
    if ($3 == "faster") {
      line = sprintf(">= %sx", $4); shown = sprintf("%.1fx (%.1f-%.1f)", med, v[1], v[n])
    } else {
      line = sprintf("cost < %d%%", (1 - $4) * 100 + 0.5)
      shown = sprintf("cost %.1f%% (%.1f-%.1f)", (1 - med) * 100, (1 - v[n]) * 100, (1 - v[1]) * 100)
    }
    printf "%-16s %-32s %-12s %-28s %s\n", $1, $2, line, shown, (med >= $4 ? "holds" : "misses")
  }
  BEGIN { printf "%-16s %-32s %-12s %-28s %s\n", "package", "target", "line", "median of " runs " runs (range)", "" }
' "$tmp/ratios" "$tmp/targets"

# The lag lines: the run with the lowest p99 at each rate.
sort -k1,1n -k3,3g "$tmp/lags" | awk '
  !seen[$1]++ {
    ok = ($2 < 50 && $3 < 200) ? "holds" : "misses"
    printf "%-12s %-22s %-12s %-28s %s\n", "load", "lag/" $1, "p50<50 p99<200",
      sprintf("%gµs p99 %gµs (%.1fµs CPU)", $2, $3, $4 / 1000), ok
  }'
