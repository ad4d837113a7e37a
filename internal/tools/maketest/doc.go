// Package maketest tests the shell scripts that make test runs
// (internal/tools/quiet.sh, fuzz.sh and lint.sh): a green run reads green, a red one
// shows what failed and where its output went. It has no code of its own.
package maketest
