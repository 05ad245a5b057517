// Scenarios: what `a2a run` simulates — a platform, P, a workload, the algorithm configurations —
// as YAML (docs/scenarios.md). Errors name the file, line and key.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "sim/simulation.hpp"

namespace YAML {
class Node;
}

namespace a2a::sim {

struct AlgorithmEntry {
  std::string name;
  ParamChoices params;  // value lists ("2,4,8") or "all"
  std::string where;    // "FILE:LINE" of the entry, for errors about it
};

struct Scenario {
  std::string origin;    // file path, or "embedded default scenario"
  std::string platform;  // preset name or platform YAML path
  int ranks = 0;
  std::string ranks_where;           // "FILE:LINE" or "--set ranks", for errors about P
  std::string ranks_per_node_where;  // the same for ranks_per_node
  int ranks_per_node = 0;            // overrides the platform's when > 0
  std::string workload = "uniform";
  std::string engine = "simgrid";
  std::vector<AlgorithmEntry> algorithms;
  SimOptions simulation;
};

// The scenario `a2a run` runs without an argument.
const std::string& default_scenario_yaml();

// Loads `path` (or the embedded default when empty) and applies `overrides` ("key=value", dotted
// keys such as simulation.payload=true; values are YAML). Throws InputError naming file:line and
// key.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides);
// The same from YAML text; `origin` names it in errors (what the fuzz target feeds).
Scenario parse_scenario(const std::string& text, const std::string& origin,
                        const std::vector<std::string>& overrides);
// A YAML document; throws InputError "ORIGIN:LINE: not valid YAML: ...".
YAML::Node parse_yaml(const std::string& text, const std::string& origin);
// The same from a parsed document (`a2a sweep` feeds one per point of its grid, docs/sweeps.md);
// `overridden` names the keys given by --set, for errors.
Scenario scenario_from_yaml(const YAML::Node& root, const std::string& origin,
                            const std::set<std::string>& overridden = {});

}  // namespace a2a::sim
