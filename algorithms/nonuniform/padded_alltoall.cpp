// padded_alltoall — Fan et al., HPDC 2022, §4.1 (the "padded MPI_Alltoall" baseline).
// As padded_bruck, but the uniform exchange of N-byte blocks is the vendor's own MPI_Alltoall:
//  (1) N = global largest block (MPI_Allreduce of each rank's largest send block);
//  (2) pad every send block to N bytes in a P·N temporary S';
//  (3) MPI_Alltoall of N bytes per rank from S' into a P·N temporary R';
//  (4) copy each block's real recvcounts bytes from R' to the receive buffer.
#include "algorithms/catalog.hpp"
#include "algorithms/nonuniform/padding.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  padding::PaddedBlocks padded(comm);
  comm.set_phase(phase::data);  // the vendor call counts as one round by itself
  comm.vendor_alltoall(padded.send_temp(), padded.recv_temp(), padded.block());
  padded.unpad();
}

}  // namespace

AlgorithmInfo padded_alltoall() {
  return {
      .name = "padded_alltoall",
      .family = Family::logarithmic,
      .handles = Handles::any,
      .description = "pad every block to the global maximum, vendor MPI_Alltoall, unpad",
      .source = "Fan et al., HPDC 2022, §4.1",
      .params = {},
      .check = nullptr,
      .run = run,
      // Only the vendor collective: the engine sizes its own exchange.
      .footprint =
          [](const ExchangeShape&, const Params&) {
            return MessageFootprint{
                .in_flight = 1, .data_peers = 0, .metadata_peers = 0, .vendor_alltoall = true};
          },
  };
}

}  // namespace a2a::catalog_entries
