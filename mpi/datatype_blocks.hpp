// The caller's MPI datatypes, seen by extent: how many data bytes an element carries (size), how
// far apart consecutive elements are (extent), and whether an element's data is exactly the
// bytes [0, size) of its extent in typemap order ("contiguous"). Contiguous blocks are exchanged
// in place; any other type (vector, resized with a gap, indexed, struct, ...) is packed into a
// contiguous staging buffer with MPI_Pack and unpacked with MPI_Unpack, so every datatype gets
// the right answer. Assumes a homogeneous MPI (a packed element is `size` bytes, checked).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace a2a::mpi {

struct TypeShape {
  std::int64_t size = 0;    // data bytes per element (MPI_Type_size_x)
  std::int64_t extent = 0;  // bytes from one element to the next (MPI_Type_get_extent_x)
  bool contiguous = false;  // data = bytes [0, size) of each element, in order, and size == extent
};

// Throws a2a::Error for a type MPI cannot describe (MPI_DATATYPE_NULL, uncommitted).
TypeShape type_shape(MPI_Datatype type);

// Packs `count` elements of `type` starting at `base` into `out` (count * size bytes), in pieces
// small enough for MPI_Pack's int arguments.
void pack_elements(const std::byte* base, std::int64_t count, MPI_Datatype type,
                   const TypeShape& shape, std::byte* out);
// The reverse: `count` elements' data from `in` into the elements at `base`.
void unpack_elements(const std::byte* in, std::int64_t count, MPI_Datatype type,
                     const TypeShape& shape, std::byte* base);

}  // namespace a2a::mpi
