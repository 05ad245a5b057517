#include "sim/vendor_model.hpp"

#include "algorithms/errors.hpp"

namespace a2a::sim {

const std::vector<std::string>& vendor_names() {
  static const std::vector<std::string> names = {"openmpi", "mpich"};
  return names;
}

namespace {

const char* openmpi_alltoallv_choice(int ranks) {
  if (ranks < 4) return "ompi_pairwise";
  if (ranks < 64) return "ompi_linear";
  if (ranks < 128) return "ompi_pairwise";
  if (ranks < 256) return "ompi_linear";
  if (ranks < 1024) return "ompi_pairwise";
  return "ompi_linear";
}

}  // namespace

Configuration vendor_choice(const std::string& mpi, int ranks, int ranks_per_node) {
  if (mpi == "openmpi") return configure(openmpi_alltoallv_choice(ranks), ranks, ranks_per_node);
  if (mpi == "mpich") return configure("scattered:batch=32", ranks, ranks_per_node);
  throw InvalidParameter("vendor '" + mpi + "' is not modeled (known: openmpi, mpich)");
}

}  // namespace a2a::sim
