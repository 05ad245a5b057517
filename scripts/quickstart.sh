#!/usr/bin/env bash
# The main job on its embedded default: installs dependencies, builds, and simulates the default
# scenario (256 ranks on a small dragonfly; the vendor choice against the catalog, ranked).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/a2a run
