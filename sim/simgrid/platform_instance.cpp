#include "sim/simgrid/platform_instance.hpp"

#include <iterator>
#include <memory>
#include <string>

#include "algorithms/errors.hpp"

namespace sg4 = simgrid::s4u;

namespace a2a::sim {

namespace {

sg4::Engine& create_engine(const SimOptions& options) {
  static const char* argv[] = {
    "a2a",
    "--log=root.thres:error",
    "--log=ker_engine.app:file:/dev/null",
    "--log=xbt_cfg.thres:warning",
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizer build (scripts/test-sanitizers.sh): AddressSanitizer cannot follow SimGrid's
    // own stack switching and reports false errors when a blocked actor is unwound after a
    // deadlock (google/sanitizers#189); system threads are stacks it knows.
    "--cfg=contexts/factory:thread",
#endif
    nullptr
  };
  static int argc = static_cast<int>(std::size(argv)) - 1;
  static sg4::Engine engine(&argc, const_cast<char**>(argv));
  sg4::Engine::set_config("network/model:" + options.network_model);
  // The max-min solver compares rates (bytes/s, here 10^9-10^11) with an absolute precision;
  // SimGrid's default of 1e-5 B/s is below the rounding residue of such rates and aborts
  // ("Cannot saturate more a constraint"). 1e-3 B/s is still 12 orders below any link.
  sg4::Engine::set_config("maxmin/precision:1e-3");
  sg4::Engine::set_config("network/crosstraffic:" + std::string(options.crosstraffic ? "1" : "0"));
  // Algorithms keep O(r + log P) state on the stack: small stacks let 10^4-10^5 actors fit.
  sg4::Engine::set_config("contexts/stack-size:128");
  return engine;
}

}  // namespace

const BuiltPlatform& simgrid_platform(const PlatformSpec& spec, int ranks,
                                      const SimOptions& options, NodeLinks node_links) {
  static std::unique_ptr<BuiltPlatform> built;
  static std::string built_for;
  const std::string key = spec.name + "@" + std::to_string(ranks) + "/" + options.placement;
  // Only a torus builds its nodes' injection links either way (builder.hpp).
  if (spec.topology != Topology::torus) node_links = NodeLinks::in_platform;
  if (built) {
    if (key != built_for) {
      throw Error("one platform per process: SimGrid cannot build a second platform");
    }
    // A torus built with its injection links serves the scale engine too (its route table then
    // takes them from SimGrid); one built without them cannot serve the SimGrid engine.
    if (built->injection_by_caller && node_links == NodeLinks::in_platform) {
      throw Error(
          "one platform per process: the scale engine built this torus without its nodes' "
          "injection links, which the SimGrid engine needs; run the SimGrid engine first or in "
          "a process of its own");
    }
    return *built;
  }
  sg4::Engine& engine = create_engine(options);
  built = std::make_unique<BuiltPlatform>(
      build_platform(engine, spec, ranks, parse_placement(options.placement), node_links));
  built_for = key;
  return *built;
}

}  // namespace a2a::sim
