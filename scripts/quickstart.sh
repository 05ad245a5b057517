#!/usr/bin/env bash
# The main job on its embedded default: installs dependencies, builds, and verifies the whole
# catalog byte for byte on 8 MPI ranks with a non-uniform workload, then lists the catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe -np 8 build/a2a-mpi verify --algorithm all --workload powerlaw \
  --workload constant:size=64
