#!/usr/bin/env bash
# Checks that every tracked C and C++ file is formatted as the repository's .clang-format says,
# with clang-format 14 (Debian 12's clang-format-14, which scripts/install-deps.sh installs; other
# versions format some constructs differently). Prints each offending line and exits non-zero.
# `scripts/check-format.sh --fix` formats the files in place instead. It also refuses merge
# conflict markers left in any tracked file (one slipped into docs/platforms.md once).
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=clang-format-14
if ! command -v "$formatter" >/dev/null; then
  echo "check-format: $formatter not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')
if [ "${1:-}" = --fix ]; then
  "$formatter" -i "${files[@]}"
  exit 0
fi
if git grep -n -I -E '^(<<<<<<<|>>>>>>>) ' -- . ':!scripts/check-format.sh'; then
  echo "check-format: merge conflict markers left in the files above" >&2
  exit 1
fi
"$formatter" --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted as .clang-format says"
