#include "workloads/listing.hpp"

#include "algorithms/registry.hpp"
#include "algorithms/text_table.hpp"
#include "workloads/workload.hpp"

namespace a2a {

namespace {

std::string param_text(const ParamSpec& spec) {
  const std::string hi = spec.max.kind == ParamBound::Kind::none ? "inf"
                         : spec.max.kind == ParamBound::Kind::ranks
                             ? "P"
                             : std::to_string(spec.max.value);
  const std::string def = spec.default_is_machine ? "machine" : std::to_string(spec.default_value);
  return spec.name + "=" + def + " [" + std::to_string(spec.min) + ".." + hi + "]";
}

}  // namespace

void print_algorithm_catalog(std::ostream& out) {
  TextTable table(
      {"algorithm", "family", "blocks", "parameters (default [range])", "description", "source"});
  for (const AlgorithmInfo& info : catalog()) {
    std::string params;
    for (const auto& spec : info.params)
      params += (params.empty() ? "" : ", ") + param_text(spec);
    table.add({info.name, family_name(info.family),
               info.handles == Handles::uniform_only ? "uniform" : "any",
               params.empty() ? "-" : params, info.description, info.source});
  }
  table.print(out);
}

void print_workload_catalog(std::ostream& out) {
  TextTable table({"workload", "options (default)", "description", "source"});
  for (const WorkloadInfo& info : workload_catalog()) {
    table.add({info.name, info.options, info.description, info.source});
  }
  table.print(out);
}

}  // namespace a2a
