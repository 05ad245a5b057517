#!/usr/bin/env bash
# Run under mpirun: every rank gets the same arguments (a2a-mpi refuses ranks started with
# different ones), a relative workload file name, but rank 3 runs in / where that file does not
# exist — as a file present on some nodes only. a2a-mpi must end on every rank with
# one error line, not hang in a collective.
a2a_mpi=$1
good=$2
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 3 ]; then
  cd / || exit 1
else
  cd "$(dirname "$good")" || exit 1
fi
exec "$a2a_mpi" verify -w "matrix:file=$(basename "$good")"
