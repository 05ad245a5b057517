#!/usr/bin/env bash
# Usage: same_rows.sh FILE_A FILE_B
# Passes when the two files are equal once comment lines ('#' first) are left out: two tuning
# tables or rules made from the same sweep given as CSV and as JSON (their comments name the file).
set -u
if diff <(grep -v '^#' "$1") <(grep -v '^#' "$2"); then
  echo "ok: $1 and $2 hold the same rows"
else
  echo "FAIL: $1 and $2 differ"
  exit 1
fi
