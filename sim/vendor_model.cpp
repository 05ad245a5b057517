#include "sim/vendor_model.hpp"

#include <algorithm>

#include "algorithms/digits.hpp"
#include "algorithms/errors.hpp"

namespace a2a::sim {

const std::vector<std::string>& vendor_names() {
  static const std::vector<std::string> names = {"openmpi", "mpich", "cray-mpich", "fujitsu-mpi"};
  return names;
}

std::string known_vendors() {
  std::string text;
  for (const auto& name : vendor_names())
    text += (text.empty() ? "" : ", ") + name;
  return text;
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

std::string vendor_label(const std::string& mpi, int ranks, int ranks_per_node) {
  return "vendor (" + mpi + ": " + vendor_choice(mpi, ranks, ranks_per_node).label() + ")";
}

Configuration vendor_choice(const std::string& mpi, int ranks, int ranks_per_node) {
  if (mpi == "openmpi") return configure(openmpi_alltoallv_choice(ranks), ranks, ranks_per_node);
  if (mpi == "mpich") return configure("scattered:batch=32", ranks, ranks_per_node);
  if (mpi == "cray-mpich")
    return configure("scattered:batch=1,lazy_sends=1", ranks, ranks_per_node);
  if (mpi == "fujitsu-mpi") return configure("ompi_pairwise", ranks, ranks_per_node);
  throw InvalidParameter("vendor '" + mpi + "' is not modeled (known: " + known_vendors() + ")");
}

void linear_vendor_alltoall(Comm& comm, int send_temp, int recv_temp, Bytes block) {
  const int P = comm.size();
  const int self = comm.rank();
  comm.copy([&](MoveSink out) {
    out({{self, self},
         Place::temp(send_temp, self * block),
         Place::temp(recv_temp, self * block),
         block});
  });
  for (int first = 1; first < P; first += kVendorAlltoallThrottle) {
    const int last = std::min(P - 1, first + kVendorAlltoallThrottle - 1);
    comm.next_round();
    for (int i = first; i <= last; ++i) {
      const int src = static_cast<int>(mod(self + i, P));
      comm.irecv(src, [&](PieceSink out) {
        out({{src, self}, Place::temp(recv_temp, src * block), block});
      });
    }
    for (int i = first; i <= last; ++i) {
      const int dst = static_cast<int>(mod(self - i, P));
      comm.isend(dst, [&](PieceSink out) {
        out({{self, dst}, Place::temp(send_temp, dst * block), block});
      });
    }
    comm.wait_all();
  }
}

}  // namespace a2a::sim
