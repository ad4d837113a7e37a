#!/usr/bin/env bash
# lint.sh STATICCHECK DEADCODE: runs staticcheck and deadcode -test over the
# module and fails on any finding outside generated code (internal/gen/),
# printing the findings. A tool that fails without a finding (it could not
# load the packages) fails the run too, with its output.
set -u
status=0
check() {
  local name=$1
  shift
  local out rc findings
  out=$("$@" 2>&1)
  rc=$?
  findings=$(printf '%s\n' "$out" | grep -v '^internal/gen/' | grep -v '^$')
  if [ -n "$findings" ]; then
    echo "$name:" >&2
    printf '%s\n' "$findings" >&2
    status=1
  elif [ "$rc" -ne 0 ] && [ -z "$out" ]; then
    echo "$name: failed (exit $rc) without output" >&2
    status=1
  fi
}
check staticcheck "$1" ./...
check deadcode "$2" -test ./...
exit "$status"
