#include "algorithms/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <sstream>

#include "algorithms/catalog.hpp"
#include "algorithms/errors.hpp"

namespace a2a {

const char* family_name(Family family) {
  switch (family) {
    case Family::linear:
      return "linear";
    case Family::bruck:
      return "bruck";
    case Family::logarithmic:
      return "logarithmic";
    case Family::hierarchical:
      return "hierarchical";
    case Family::memory_efficient:
      return "memory-efficient";
    case Family::vendor:
      return "vendor";
  }
  return "?";
}

std::int64_t Params::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end())
    throw ContractViolation("algorithm parameter '" + name + "' was not set");
  return it->second;
}

namespace {
bool labelled(const ParamSpec& spec, const Params& params) {
  return spec.labelled_at_default || params.get(spec.name) != spec.default_value;
}
}  // namespace

std::string Configuration::label() const {
  std::string out = algorithm->name;
  for (const auto& spec : algorithm->params) {
    if (labelled(spec, params))
      out += " " + spec.name + "=" + std::to_string(params.get(spec.name));
  }
  return out;
}

std::string Configuration::spec() const {
  std::string out = algorithm->name;
  const char* separator = ":";
  for (const auto& param : algorithm->params) {
    if (!labelled(param, params)) continue;
    out += separator + param.name + "=" + std::to_string(params.get(param.name));
    separator = ",";
  }
  return out;
}

namespace {

std::deque<AlgorithmInfo>& entries() {
  using namespace catalog_entries;
  static std::deque<AlgorithmInfo> entries = {
      spread_out(),          scattered(),          ompi_linear(),
      ompi_pairwise(),       xor_pairwise(),       vendor(),
      bruck_basic(),         bruck_modified(),     bruck_zero_copy(),
      bruck_zero_rotation(), bruck_radix(),        padded_alltoall(),
      padded_bruck(),        two_phase_bruck(),    parlogna(),
      parlinna_coalesced(),  parlinna_staggered(), hierarchical_bruck(),
      bitonic_inplace(),
  };
  return entries;
}

}  // namespace

const std::deque<AlgorithmInfo>& catalog() {
  return entries();
}

void register_algorithm(AlgorithmInfo info) {
  for (const auto& known : catalog()) {
    if (known.name == info.name)
      throw InvalidParameter("algorithm '" + info.name + "' is already in the catalog");
  }
  entries().push_back(std::move(info));
}

const AlgorithmInfo& find_algorithm(const std::string& name) {
  for (const auto& info : catalog()) {
    if (info.name == name) return info;
  }
  std::string known;
  for (const auto& info : catalog())
    known += (known.empty() ? "" : ", ") + info.name;
  throw InvalidParameter("unknown algorithm '" + name + "' (known: " + known + ")");
}

namespace {

std::int64_t parse_int(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    throw InvalidParameter(what + ": '" + text + "' is not an integer");
  }
  return value;
}

// For "at most P" the bound is max(P, min): at P = 1 a radix range [2, 1] would be empty, and the
// radix of a one-rank exchange is moot (there are no rounds).
std::int64_t upper_bound(const ParamSpec& spec, int ranks) {
  switch (spec.max.kind) {
    case ParamBound::Kind::none:
      return INT64_MAX;
    case ParamBound::Kind::number:
      return spec.max.value;
    case ParamBound::Kind::ranks:
      return std::max<std::int64_t>(ranks, spec.min);
  }
  return INT64_MAX;
}

std::string range_text(const ParamSpec& spec, int ranks) {
  std::ostringstream out;
  out << "[" << spec.min << ", ";
  if (spec.max.kind == ParamBound::Kind::none) {
    out << "inf)";
  } else {
    out << upper_bound(spec, ranks);
    if (spec.max.kind == ParamBound::Kind::ranks) out << " = P";
    out << "]";
  }
  return out.str();
}

}  // namespace

Configuration configure(const std::string& name, const std::map<std::string, std::int64_t>& given,
                        int ranks, int ranks_per_node) {
  Configuration config;
  config.algorithm = &find_algorithm(name);
  for (const auto& [key, value] : given) {
    bool known = false;
    for (const auto& spec : config.algorithm->params)
      known = known || spec.name == key;
    if (!known) {
      throw InvalidParameter("algorithm '" + name + "' has no parameter '" + key + "'");
    }
  }
  for (const auto& spec : config.algorithm->params) {
    auto it = given.find(spec.name);
    std::int64_t value = it != given.end()         ? it->second
                         : spec.default_is_machine ? ranks_per_node
                                                   : spec.default_value;
    // A default larger than P (e.g. batch 32 on 8 ranks) is clamped; a given value never is.
    if (it == given.end()) value = std::min<std::int64_t>(value, upper_bound(spec, ranks));
    if (value < spec.min || value > upper_bound(spec, ranks)) {
      throw InvalidParameter(name + ": parameter " + spec.name + "=" + std::to_string(value) +
                             " is out of range " + range_text(spec, ranks) +
                             " for P=" + std::to_string(ranks));
    }
    config.params.set(spec.name, value);
  }
  return config;
}

Configuration configure(const std::string& spec, int ranks, int ranks_per_node) {
  auto colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  std::map<std::string, std::int64_t> given;
  if (colon != std::string::npos) {
    std::stringstream rest(spec.substr(colon + 1));
    std::string item;
    while (std::getline(rest, item, ',')) {
      auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw InvalidParameter("algorithm spec '" + spec + "': expected key=value, got '" + item +
                               "'");
      }
      std::string key = item.substr(0, eq);
      given[key] = parse_int(item.substr(eq + 1), "algorithm spec '" + spec + "' key " + key);
    }
  }
  return configure(name, given, ranks, ranks_per_node);
}

std::vector<Configuration> expand(const AlgorithmInfo& algorithm, const ParamChoices& choices,
                                  int ranks, int ranks_per_node) {
  // Candidate values per parameter of this algorithm that the user chose something for.
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> axes;
  bool from_all = false;
  for (const auto& spec : algorithm.params) {
    auto it = choices.find(spec.name);
    if (it == choices.end()) continue;
    std::vector<std::int64_t> values;
    if (it->second == "all") {
      const std::int64_t hi = upper_bound(spec, ranks);
      if (hi == INT64_MAX) {
        throw InvalidParameter("parameter " + spec.name + "=all: " + algorithm.name +
                               " has no upper bound for it; give explicit values");
      }
      for (std::int64_t v = spec.min; v <= hi; ++v)
        values.push_back(v);
      from_all = true;
    } else {
      std::stringstream list(it->second);
      std::string item;
      while (std::getline(list, item, ',')) {
        const std::int64_t v = parse_int(item, spec.name);
        // Explicit values are checked here, so that an `all` on another axis cannot hide them.
        if (v < spec.min || v > upper_bound(spec, ranks)) {
          throw InvalidParameter(algorithm.name + ": parameter " + spec.name + "=" +
                                 std::to_string(v) + " is out of range " + range_text(spec, ranks) +
                                 " for P=" + std::to_string(ranks));
        }
        values.push_back(v);
      }
    }
    axes.emplace_back(spec.name, std::move(values));
  }
  std::vector<Configuration> out;
  std::map<std::string, std::int64_t> given;
  // Cartesian product over the axes, depth first.
  auto recurse = [&](auto&& self, size_t axis) -> void {
    if (axis == axes.size()) {
      try {
        out.push_back(configure(algorithm.name, given, ranks, ranks_per_node));
      } catch (const InvalidParameter&) {
        if (!from_all) throw;
      }
      return;
    }
    for (std::int64_t v : axes[axis].second) {
      given[axes[axis].first] = v;
      self(self, axis + 1);
    }
  };
  recurse(recurse, 0);
  return out;
}

std::optional<std::string> not_applicable_reason(const Configuration& config,
                                                 const ExchangeShape& shape) {
  const AlgorithmInfo& algo = *config.algorithm;
  if (algo.handles == Handles::uniform_only && !shape.uniform) {
    return "uniform only: needs every block the same size (use workload constant)";
  }
  if (algo.check) return algo.check(shape, config.params);
  return std::nullopt;
}

}  // namespace a2a
