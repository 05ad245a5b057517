// The catalog's registry: every algorithm's name, family, parameters (defaults and valid ranges),
// one-line description and source, and the function that runs it on a Comm.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/comm.hpp"

namespace a2a {

enum class Family { linear, bruck, logarithmic, hierarchical, memory_efficient, vendor };
const char* family_name(Family family);

// Which exchanges an algorithm handles.
enum class Handles { uniform_only, any };

// Upper bound of a parameter: a number, or the communicator size P, or none.
struct ParamBound {
  enum class Kind { none, number, ranks } kind = Kind::none;
  std::int64_t value = 0;
  static ParamBound unbounded() { return {}; }
  static ParamBound number(std::int64_t v) { return {Kind::number, v}; }
  static ParamBound ranks() { return {Kind::ranks, 0}; }
};

struct ParamSpec {
  std::string name;     // "radix", "batch", "ranks_per_node"
  std::string meaning;  // one line for `list`
  // Default: a number, or (when default_is_machine) the machine's ranks per node.
  std::int64_t default_value = 0;
  bool default_is_machine = false;
  std::int64_t min = 1;
  ParamBound max;
  // False for a switch added to an algorithm that had none: while at its default it is left out of
  // labels and specs, which stay what they were ("parlogna radix=2").
  bool labelled_at_default = true;
};

// What an algorithm may need to know about an exchange before it runs.
struct ExchangeShape {
  int ranks = 1;
  int ranks_per_node = 1;
  bool uniform = false;              // every block has the same size
  bool balanced = false;             // every rank sends and receives the same total
  bool contiguous_in_order = false;  // blocks packed back to back in rank order, no gaps
};

// The messages of one rank over a run, as upper bounds: what the simulators' memory guards size
// (sim/simgrid/memory_model.hpp, sim/scale/memory_model.hpp). Each algorithm declares its own
// (algorithms/footprint.hpp has the shapes the catalog shares), so an engine never has to know an
// algorithm by name; tests/unit/test_footprint.cpp checks every declaration against the messages
// the algorithm really posts.
struct MessageFootprint {
  std::int64_t in_flight = 1;       // messages posted and not yet completed at any time
  std::int64_t data_peers = 0;      // distinct ranks it exchanges data messages with
  std::int64_t metadata_peers = 0;  // distinct ranks it exchanges sizes or values with
  bool vendor_alltoall = false;     // also calls Comm::vendor_alltoall (the engine's own exchange)
  // Heap memory one rank's code keeps alive while it waits (bookkeeping beyond its messages and
  // temporary buffers): the simulators hold it for every rank at once.
  std::int64_t rank_heap_bytes = 0;
};

// Parameter values resolved for one run.
class Params {
 public:
  std::int64_t get(const std::string& name) const;
  int get_int(const std::string& name) const { return static_cast<int>(get(name)); }
  void set(const std::string& name, std::int64_t value) { values_[name] = value; }
  const std::map<std::string, std::int64_t>& values() const { return values_; }

 private:
  std::map<std::string, std::int64_t> values_;
};

struct AlgorithmInfo {
  std::string name;
  Family family = Family::linear;
  Handles handles = Handles::any;
  std::string description;  // one line
  std::string source;       // paper and section (docs/references.md)
  std::vector<ParamSpec> params;
  // Empty when the algorithm applies to the exchange, else the reason it does not.
  std::function<std::optional<std::string>(const ExchangeShape&, const Params&)> check;
  std::function<void(Comm&, const Params&)> run;
  // Its messages for an exchange of `shape` (parameters resolved). Empty for `vendor`, which
  // stands for the engine's own exchange, and for an algorithm that declares none: the guards then
  // assume P − 1 of everything and say so.
  std::function<MessageFootprint(const ExchangeShape&, const Params&)> footprint;
  // True when the algorithm works in one array that holds the send data at the start and the
  // receive data at the end (the paper's in-place exchange; it needs as many bytes sent as
  // received): its working memory counts the caller's buffers once, not twice (docs/scenarios.md,
  // "working_bytes").
  bool in_place = false;
};

// One algorithm with its parameter values, e.g. parsed from "parlogna:radix=4".
struct Configuration {
  const AlgorithmInfo* algorithm = nullptr;
  Params params;
  std::string label() const;  // "parlogna r=4"
  // "parlogna:radix=4" (every parameter, catalog order; the name alone when it has none): what
  // configure() reads back, so results can name their configuration exactly.
  std::string spec() const;
};

// All algorithms, in catalog order, then any added by register_algorithm. A deque: adding one
// leaves every Configuration's pointer into it valid.
const std::deque<AlgorithmInfo>& catalog();
// Adds an algorithm after the catalog's (an extension, or a test's throw-away algorithm); it is
// then found, configured, listed and run like any other. Call it before any thread runs; a name
// already taken throws InvalidParameter.
void register_algorithm(AlgorithmInfo info);
// Throws InvalidParameter("unknown algorithm ...") listing the known names.
const AlgorithmInfo& find_algorithm(const std::string& name);

// Parses "name" or "name:key=value,key=value" and resolves defaults and ranges for an exchange of
// `ranks` ranks with the machine's `ranks_per_node`. Throws InvalidParameter naming the parameter.
Configuration configure(const std::string& spec, int ranks, int ranks_per_node);
// Same, from a name and explicitly given values (command-line flags); values for parameters the
// algorithm does not have are an error.
Configuration configure(const std::string& name, const std::map<std::string, std::int64_t>& given,
                        int ranks, int ranks_per_node);

// Command-line parameter choices: name -> "4", "2,4,8" or "all" (every value in the algorithm's
// range; needs a bounded range). Choices naming parameters an algorithm lacks are ignored for it.
using ParamChoices = std::map<std::string, std::string>;
// Every configuration of `algorithm` the choices select, for P = ranks. Explicit values out of
// range throw InvalidParameter; combinations from "all" that the algorithm rejects are dropped.
std::vector<Configuration> expand(const AlgorithmInfo& algorithm, const ParamChoices& choices,
                                  int ranks, int ranks_per_node);

// Empty when `config` applies to `shape`, else why not (handles, the algorithm's own check).
std::optional<std::string> not_applicable_reason(const Configuration& config,
                                                 const ExchangeShape& shape);

}  // namespace a2a
