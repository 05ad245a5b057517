#!/usr/bin/env bash
# Builds a2a and runs every test (unit, MPI verification, bad input). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
