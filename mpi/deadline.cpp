#include "mpi/deadline.hpp"

#include <sched.h>

#include "mpi/mpi_error.hpp"

namespace a2a::mpi {

Deadline Deadline::after(double seconds) {
  Deadline deadline;
  if (seconds > 0) {
    deadline.at_ = MPI_Wtime() + seconds;
    deadline.seconds_ = seconds;
  }
  return deadline;
}

bool Deadline::passed() const {
  return set() && MPI_Wtime() >= at_;
}

bool wait_all_until(std::span<MPI_Request> requests, const Deadline& deadline) {
  const int count = static_cast<int>(requests.size());
  if (!deadline.set()) {
    check_mpi(MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    return true;
  }
  while (true) {
    int done = 0;
    check_mpi(MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (done) return true;
    if (deadline.passed()) return false;
    // Oversubscribed runs (more ranks than cores) need the peers to get the core to progress.
    sched_yield();
  }
}

}  // namespace a2a::mpi
