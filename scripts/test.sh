#!/usr/bin/env bash
# Checks the formatting, builds a2a and runs every test (unit, MPI verification, bad input,
# faults), then the sanitizer build and the fuzzers. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-format.sh  # clang-format, before anything is built
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
# Hardening (docs/reliability.md): the tests again under AddressSanitizer and UndefinedBehavior-
# Sanitizer, then every fuzz target for a bounded number of inputs.
scripts/test-sanitizers.sh
scripts/test-fuzz.sh
