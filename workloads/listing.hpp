// The catalog tables printed by `a2a list` and `a2a-mpi list`.
#pragma once

#include <ostream>

namespace a2a {

void print_algorithm_catalog(std::ostream& out);
void print_workload_catalog(std::ostream& out);

}  // namespace a2a
