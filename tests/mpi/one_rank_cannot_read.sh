#!/usr/bin/env bash
# Run under mpirun: rank 3 is given a workload file that does not exist, the others a good one.
# a2a-mpi must end on every rank with one error line, not hang in a collective.
a2a_mpi=$1
good=$2
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 3 ]; then
  exec "$a2a_mpi" verify -w "matrix:file=$good.missing"
fi
exec "$a2a_mpi" verify -w "matrix:file=$good"
