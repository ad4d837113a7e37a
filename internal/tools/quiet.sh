#!/usr/bin/env bash
# quiet.sh LOG DESCRIPTION COMMAND...: runs COMMAND with all its output appended
# to LOG. Prints nothing when it succeeds; when it fails, names what failed,
# where its whole log is, and the log's last lines, and exits with its code.
set -u
log=$1 what=$2
shift 2
mkdir -p "$(dirname "$log")"
printf '\n== %s: %s\n' "$what" "$*" >>"$log"
"$@" >>"$log" 2>&1 && exit 0
rc=$?
printf '%s failed (exit %d); full log: %s\n' "$what" "$rc" "$log" >&2
tail -n 40 "$log" >&2
exit "$rc"
