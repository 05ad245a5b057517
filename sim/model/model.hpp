// Analytic cost models of the catalog (issue 5; docs/models.md): for every algorithm its Hockney
// α–β cost with LogGP's per-message overhead, evaluated step by step on the exact block sizes of
// the workload, with the terms kept apart (latency, bandwidth, overhead, copies, launches).
//
// One file per family, each function citing docs/algorithms.md and the paper section it models:
// linear.cpp, bruck.cpp, nonuniform.cpp, hierarchical.cpp, memory.cpp. cost.hpp has the step
// formula, machine.hpp where α, β and the rest come from.
#pragma once

#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "sim/model/cost.hpp"
#include "sim/model/machine.hpp"
#include "workloads/workload.hpp"

namespace a2a::model {

// The cost of `config` on `workload` (P = workload.ranks()) on `machine`. `vendor` is what the
// `vendor` algorithm stands for (sim/vendor_model.hpp: "openmpi", "mpich", "cray-mpich" or
// "fujitsu-mpi"). Throws InvalidParameter for an algorithm without a model and NotApplicable when
// the workload does not suit the algorithm (a uniform Bruck on unequal blocks).
Cost model_cost(const Configuration& config, const Workload& workload, const Machine& machine,
                const std::string& vendor = "openmpi");

// Whether `algorithm` has an analytic model. One added to the catalog has none until a model is
// written for it and listed in model.cpp; `a2a model` then says "no model" on its line.
bool has_model(const AlgorithmInfo& algorithm);

// Names of the algorithms that have a model, in catalog order.
std::vector<std::string> modeled_algorithms();

}  // namespace a2a::model
