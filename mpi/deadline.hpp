// Waiting for MPI requests with a deadline (`a2a-mpi --timeout`, docs/reliability.md). A hung
// exchange (a message that never comes) would block MPI_Wait forever; polling with MPI_Test until
// a deadline turns it into an error that names what is missing. Without a deadline the plain
// blocking calls are used, so untimed runs behave exactly as before.
#pragma once

#include <mpi.h>

#include <span>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

// A wait passed its deadline; what() says what the rank was still waiting for.
class TimedOut : public Error {
 public:
  using Error::Error;
};

class Deadline {
 public:
  // No deadline: waits block for as long as it takes.
  Deadline() = default;
  // `seconds` from now; seconds <= 0 means no deadline.
  static Deadline after(double seconds);

  bool set() const { return at_ > 0; }
  bool passed() const;
  double seconds() const { return seconds_; }

 private:
  double at_ = 0;  // MPI_Wtime() at which it passes; 0: never
  double seconds_ = 0;
};

// Waits for every request (MPI_REQUEST_NULL entries are skipped). Returns true once all completed
// (they are then MPI_REQUEST_NULL), false if the deadline passed first: the requests still pending
// are left as they are. Throws a2a::Error if MPI reports an error.
bool wait_all_until(std::span<MPI_Request> requests, const Deadline& deadline);

}  // namespace a2a::mpi
