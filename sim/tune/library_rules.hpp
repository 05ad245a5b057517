// A tuning map restricted to what an MPI library can do itself, written in that library's own
// selection format: Open MPI coll/tuned's dynamic rules file (classic format, as Open MPI 4.1.4
// reads it) and an MPICH collective-selection JSON subtree. Both select MPI_Alltoallv by
// communicator size only (Open MPI ignores the message size for alltoallv; MPICH's selector has no
// message size for alltoallv), so each communicator size gets the candidate with the lowest
// geometric mean of predicted times over the sweep's S values.
#pragma once

#include <string>
#include <vector>

#include "sim/tune/tuning_map.hpp"

namespace a2a::tune {

struct LibraryRules {
  std::string text;                // the file's contents
  std::vector<std::string> notes;  // for the terminal: the caveats and each size's choice
};

// Candidates: ompi_linear (basic_linear, 1) and ompi_pairwise (pairwise, 2). Throws InputError
// when the map has neither.
LibraryRules open_mpi_rules(const TuningMap& map, const std::string& sources);

// Candidates: scattered:batch=B and spread_out (scattered with MPIR_CVAR_ALLTOALL_THROTTLE=0).
// The throttle is one global value: the notes recommend the batch with the lowest geometric mean
// over every cell. Throws InputError when the map has no candidate.
LibraryRules mpich_rules(const TuningMap& map);

}  // namespace a2a::tune
