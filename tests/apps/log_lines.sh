#!/usr/bin/env bash
# Usage: log_lines.sh PROGRAM COMMAND...
# Runs COMMAND (an mpirun of PROGRAM under liba2a_pmpi.so with A2A_LOG=info) under strace -f and
# passes when the processes running PROGRAM wrote a2a's log lines to stderr, each in one write(2)
# of exactly one whole line ("a2a: ...\n", no other newline): a line never splits around the
# application's own output.
set -u
program=$1
shift
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT
timeout 120 strace -f -qq -s 65536 -e trace=execve,write -e signal=none -o "$trace" "$@" \
  >/dev/null 2>&1 || { echo "FAIL: command failed"; exit 1; }
pids=$(grep -F "execve(\"$program\"" "$trace" | grep -v "= -1" | awk '{print $1}' | sort -u)
[ -n "$pids" ] || { echo "FAIL: no process ran $program"; exit 1; }
writes=$(grep -E "^($(paste -sd'|' <<<"$pids")) +write\(2, " "$trace" | grep -F 'a2a: ')
[ -n "$writes" ] || { echo "FAIL: no a2a line written by $program"; exit 1; }
echo "$writes"
bad=$(grep -Ev 'write\(2, "a2a: ([^"\\]|\\[^n])*\\n", [0-9]+' <<<"$writes")
[ -z "$bad" ] || { echo "FAIL: a2a output not written as whole single lines:"; echo "$bad"; exit 1; }
echo "ok: $(wc -l <<<"$writes") a2a lines, each one write(2) of one whole line"
