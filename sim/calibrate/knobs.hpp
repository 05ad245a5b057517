// The platform parameters `a2a calibrate` can fit (docs/calibration.md): top-level terms such as
// nic_message_time, and the bandwidth and latency of each kind of link, named `section.field`
// (`injection.latency`).
#pragma once

#include <string>
#include <vector>

#include "platforms/platform.hpp"

namespace a2a::sim::calibrate {

enum class Unit { time, bandwidth, bytes };

// A parameter: its key, unit, where its value lives in a PlatformSpec, and the box it is searched
// in.
struct Knob {
  const char* key;
  Unit unit;
  double& (*value)(PlatformSpec&);
  double lower, upper;
  double start;  // where the search starts when the platform leaves the parameter at 0

  // For a link's parameter, the link's YAML section and its field ("injection", "latency");
  // empty section for a top-level key.
  std::string section() const;
  std::string field() const;
};

const std::vector<Knob>& knobs();

// The knob named `key`; InputError naming --fit and the known keys if there is none, or if the
// platform has no such link (injection links only on a torus or dragonfly, global links only on a
// dragonfly).
const Knob& knob(const std::string& key, const PlatformSpec& platform);

// The value as a platform YAML writes it, with its unit ("1500ns", "25GBps", "4096B").
std::string yaml_value(Unit unit, double value);

}  // namespace a2a::sim::calibrate
