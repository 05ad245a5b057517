#!/usr/bin/env bash
# Usage: expect_error.sh [--exit CODE] REGEX COMMAND...
# Passes when COMMAND exits non-zero without a crash (exit code 1..125, no signal; exactly CODE
# when given), its output matches REGEX, and it printed exactly one line containing "error:" (one
# clear line, no dump).
set -u
expected_code=
if [ "$1" = --exit ]; then
  expected_code=$2
  shift 2
fi
regex=$1
shift
output=$(timeout 120 "$@" 2>&1)
code=$?
echo "$output"
echo "[exit code $code]"
if [ "$code" -eq 0 ]; then echo "FAIL: expected a non-zero exit"; exit 1; fi
if [ "$code" -ge 124 ]; then echo "FAIL: timed out or crashed (exit $code)"; exit 1; fi
if [ -n "$expected_code" ] && [ "$code" -ne "$expected_code" ]; then
  echo "FAIL: expected exit code $expected_code"
  exit 1
fi
if ! grep -Eq -- "$regex" <<<"$output"; then echo "FAIL: output does not match /$regex/"; exit 1; fi
errors=$(grep -c "error:" <<<"$output")
if [ "$errors" -lt 1 ]; then echo "FAIL: no 'error:' line"; exit 1; fi
# mpirun may repeat a rank's line once per rank that hit it; they must all be the same line.
distinct=$(grep "error:" <<<"$output" | sed 's/rank [0-9]*/rank N/' | sort -u | wc -l)
if [ "$distinct" -ne 1 ]; then echo "FAIL: expected one distinct error line, got $distinct"; exit 1; fi
echo "ok"
