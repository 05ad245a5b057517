#include "mpi/test_faults.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

namespace {

TestFault parse_fault(const char* text) {
  TestFault fault;
  if (text == nullptr || *text == '\0') return fault;
  const std::string value = text;
  const auto colon = value.find(':');
  const std::string kind = value.substr(0, colon);
  if (kind == "drop_send") {
    fault.kind = TestFault::Kind::drop_send;
  } else if (kind == "recv_count") {
    fault.kind = TestFault::Kind::recv_count;
  }
  const char* first = value.data() + (colon == std::string::npos ? value.size() : colon + 1);
  const char* last = value.data() + value.size();
  const auto [end, ec] = std::from_chars(first, last, fault.rank);
  if (fault.kind == TestFault::Kind::none || colon == std::string::npos || ec != std::errc() ||
      end != last || fault.rank < 0) {
    throw InvalidParameter("A2A_MPI_TEST_FAULT='" + value +
                           "': expected drop_send:RANK or recv_count:RANK (test-only)");
  }
  return fault;
}

}  // namespace

const TestFault& test_fault() {
  static const TestFault fault = parse_fault(std::getenv("A2A_MPI_TEST_FAULT"));
  return fault;
}

bool test_fault_drops_send(int rank) {
  static bool dropped = false;
  const TestFault& fault = test_fault();
  if (dropped || fault.kind != TestFault::Kind::drop_send || fault.rank != rank) return false;
  dropped = true;
  return true;
}

void apply_test_fault(ExchangeLayout& layout, int rank) {
  const TestFault& fault = test_fault();
  if (fault.kind != TestFault::Kind::recv_count || fault.rank != rank) return;
  for (std::int64_t& count : layout.recvcounts) {
    if (count > 0) {
      --count;  // a smaller block keeps the layout valid (no overlap): only the pair disagrees
      return;
    }
  }
}

}  // namespace a2a::mpi
