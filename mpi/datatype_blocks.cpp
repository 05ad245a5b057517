#include "mpi/datatype_blocks.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

namespace {

// The datatypes, integers and addresses a derived type was built from; frees the derived ones.
class Contents {
 public:
  explicit Contents(MPI_Datatype type) {
    int combiner = 0;
    PMPI_Type_get_envelope(type, &integers_count_, &addresses_count_, &types_count_, &combiner);
    integers.resize(static_cast<size_t>(integers_count_));
    addresses.resize(static_cast<size_t>(addresses_count_));
    types.resize(static_cast<size_t>(types_count_));
    PMPI_Type_get_contents(type, integers_count_, addresses_count_, types_count_, integers.data(),
                           addresses.data(), types.data());
  }
  ~Contents() {
    for (MPI_Datatype& type : types) {
      int ni = 0, na = 0, nd = 0, combiner = 0;
      PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
      if (combiner != MPI_COMBINER_NAMED) PMPI_Type_free(&type);
    }
  }
  Contents(const Contents&) = delete;
  Contents& operator=(const Contents&) = delete;

  std::vector<int> integers;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Datatype> types;

 private:
  int integers_count_ = 0, addresses_count_ = 0, types_count_ = 0;
};

// True only when proven: a predefined type without gaps, or a dup / contiguous / resized /
// gap-free vector of such a type. Anything else is packed (always correct, just a copy more).
bool proven_contiguous(MPI_Datatype type) {
  MPI_Count lb = 0, extent = 0, size = 0;
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_size_x(type, &size);
  if (lb != 0 || extent != size) return false;
  int ni = 0, na = 0, nd = 0, combiner = 0;
  PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  if (combiner == MPI_COMBINER_NAMED) return true;
  const Contents contents(type);
  switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_CONTIGUOUS:
    case MPI_COMBINER_RESIZED:  // lb == 0 and extent == size were checked above
      return proven_contiguous(contents.types[0]);
    case MPI_COMBINER_VECTOR:  // count, blocklength, stride (in old extents)
      return proven_contiguous(contents.types[0]) &&
             (contents.integers[0] <= 1 || contents.integers[2] == contents.integers[1]);
    case MPI_COMBINER_HVECTOR: {  // count, blocklength; stride in bytes
      MPI_Count old_lb = 0, old_extent = 0;
      PMPI_Type_get_extent_x(contents.types[0], &old_lb, &old_extent);
      return proven_contiguous(contents.types[0]) &&
             (contents.integers[0] <= 1 ||
              contents.addresses[0] == static_cast<MPI_Aint>(contents.integers[1] * old_extent));
    }
    default:
      return false;
  }
}

// Elements per MPI_Pack/MPI_Unpack call: their counts, sizes and positions are int.
std::int64_t elements_per_piece(const TypeShape& shape) {
  if (shape.size > INT_MAX) {
    throw Error("a non-contiguous datatype element of " + std::to_string(shape.size) +
                " bytes exceeds MPI_Pack's int range");
  }
  return std::max<std::int64_t>(1, INT_MAX / std::max<std::int64_t>(1, shape.size));
}

void check_position(int position, std::int64_t expected) {
  if (position != expected) {
    throw Error("MPI_Pack produced " + std::to_string(position) + " bytes for " +
                std::to_string(expected) + " bytes of data (a heterogeneous MPI is not supported)");
  }
}

}  // namespace

TypeShape type_shape(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) throw InvalidParameter("datatype is MPI_DATATYPE_NULL");
  MPI_Count lb = 0, extent = 0, size = 0;
  if (PMPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED) {
    throw InvalidParameter("datatype cannot be described by MPI");
  }
  return {static_cast<std::int64_t>(size), static_cast<std::int64_t>(extent),
          proven_contiguous(type)};
}

void pack_elements(const std::byte* base, std::int64_t count, MPI_Datatype type,
                   const TypeShape& shape, std::byte* out) {
  const std::int64_t step = elements_per_piece(shape);
  for (std::int64_t first = 0; first < count; first += step) {
    const std::int64_t n = std::min(step, count - first);
    int position = 0;
    PMPI_Pack(base + first * shape.extent, static_cast<int>(n), type, out + first * shape.size,
              static_cast<int>(n * shape.size), &position, MPI_COMM_SELF);
    check_position(position, n * shape.size);
  }
}

void unpack_elements(const std::byte* in, std::int64_t count, MPI_Datatype type,
                     const TypeShape& shape, std::byte* base) {
  const std::int64_t step = elements_per_piece(shape);
  for (std::int64_t first = 0; first < count; first += step) {
    const std::int64_t n = std::min(step, count - first);
    int position = 0;
    PMPI_Unpack(in + first * shape.size, static_cast<int>(n * shape.size), &position,
                base + first * shape.extent, static_cast<int>(n), type, MPI_COMM_SELF);
    check_position(position, n * shape.size);
  }
}

}  // namespace a2a::mpi
