// MPI return codes as a2a errors: every MPI call of the backend goes through check_mpi, so a
// failing call becomes one line naming the call and MPI's own description.
#pragma once

#include <mpi.h>

#include <string>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

inline void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string(what) + " failed: " + std::string(text, static_cast<size_t>(length)));
}

}  // namespace a2a::mpi
