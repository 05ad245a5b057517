#!/usr/bin/env bash
# Checks the formatting, builds a2a and runs every test (unit, MPI verification, bad input,
# faults), then the sanitizer build and the fuzzers. CI runs exactly this. Each step's wall time is
# printed as it ends ("test.sh: ... took N s"), so a CI log shows where its minutes went.
set -euo pipefail
cd "$(dirname "$0")/.."
step() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $((SECONDS - start)) s (${SECONDS} s in all)"
}
step "installing dependencies" scripts/install-deps.sh
step "the format check" scripts/check-format.sh  # clang-format, before anything is built
step "the build" scripts/build.sh
step "the tests" ctest --test-dir build --output-on-failure -j "$(nproc)"
# Hardening (docs/reliability.md): the tests again under AddressSanitizer and UndefinedBehavior-
# Sanitizer, then every fuzz target for a bounded number of inputs.
step "the sanitizer build and tests" scripts/test-sanitizers.sh
step "the fuzzers" scripts/test-fuzz.sh
