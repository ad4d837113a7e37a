#!/usr/bin/env bash
# fuzz.sh FUZZTIME PACKAGE...: runs each FuzzXxx target of each package for
# FUZZTIME on top of its seed corpus, printing one line a target and a
# target's whole output only when it fails.
#
# Go 1.26's fuzzing coordinator can report its own -fuzztime deadline as a
# failure, "context deadline exceeded" with no failing input
# (golang/go#75804, fixed in Go 1.27). That alone is not a failure: it is
# told apart from a real one, which always writes a failing input.
set -u
go=${GO:-go}
fuzztime=$1
shift
for pkg in "$@"; do
  targets=$("$go" test -list '^Fuzz' "$pkg") || { echo "fuzz $pkg: listing targets failed" >&2; echo "$targets" >&2; exit 1; }
  for target in $(echo "$targets" | grep '^Fuzz'); do
    out=$("$go" test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" "$pkg" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ]; then
      echo "fuzz $pkg $target: ok"
    elif echo "$out" | grep -q '^    context deadline exceeded$' && ! echo "$out" | grep -q 'Failing input written'; then
      echo "fuzz $pkg $target: ok (the coordinator's deadline race, golang/go#75804, no failing input)"
    else
      echo "fuzz $pkg $target: FAILED" >&2
      echo "$out" >&2
      exit 1
    fi
  done
done
