// One factory per algorithm file; registry.cpp lists them in catalog order.
#pragma once

#include "algorithms/registry.hpp"

namespace a2a::catalog_entries {

// linear/
AlgorithmInfo spread_out();
AlgorithmInfo scattered();
AlgorithmInfo ompi_linear();
AlgorithmInfo ompi_pairwise();
AlgorithmInfo xor_pairwise();
AlgorithmInfo vendor();
// bruck/
AlgorithmInfo bruck_basic();
AlgorithmInfo bruck_modified();
AlgorithmInfo bruck_zero_copy();
AlgorithmInfo bruck_zero_rotation();
AlgorithmInfo bruck_radix();
// nonuniform/
AlgorithmInfo padded_alltoall();
AlgorithmInfo padded_bruck();
AlgorithmInfo two_phase_bruck();
AlgorithmInfo parlogna();
AlgorithmInfo parlinna_coalesced();
AlgorithmInfo parlinna_staggered();
AlgorithmInfo hierarchical_bruck();
// memory/
AlgorithmInfo bitonic_inplace();

}  // namespace a2a::catalog_entries
