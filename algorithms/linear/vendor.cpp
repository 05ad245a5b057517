// vendor — Fan et al., HPDC 2025, §5.3. The backend's own collective: MPI_Alltoallv of the MPI
// library in use on the MPI backend; in simulation, a named MPI's default choice. The baseline
// every table compares to.
#include "algorithms/catalog.hpp"

namespace a2a::catalog_entries {

AlgorithmInfo vendor() {
  return {
      .name = "vendor",
      .family = Family::vendor,
      .handles = Handles::any,
      .description = "the backend's own MPI_Alltoallv (the baseline)",
      .source = "Fan et al., HPDC 2025, §5.3",
      .params = {},
      .check = nullptr,
      .run =
          [](Comm& comm, const Params&) {
            comm.set_phase(phase::data);
            comm.vendor_alltoallv();
          },
      // The engine's own exchange: a simulator sizes the MPI's choice (sim/vendor_model.hpp).
      .footprint = nullptr,
  };
}

}  // namespace a2a::catalog_entries
