#include "sim/calibrate/knobs.hpp"

#include <cmath>
#include <cstdio>

#include "algorithms/errors.hpp"

namespace a2a::sim::calibrate {

namespace {

template <double PlatformSpec::*Field>
double& top(PlatformSpec& spec) {
  return spec.*Field;
}

template <LinkSpec PlatformSpec::*Link, double LinkSpec::*Field>
double& of_link(PlatformSpec& spec) {
  return (spec.*Link).*Field;
}

// The box of every link: a latency from 1 ns to 1 ms, a bandwidth from 1 MB/s to 10 TB/s.
template <LinkSpec PlatformSpec::*Link>
Knob latency_of(const char* key) {
  return {key, Unit::time, &of_link<Link, &LinkSpec::latency>, 1e-9, 1e-3, 1e-6};
}
template <LinkSpec PlatformSpec::*Link>
Knob bandwidth_of(const char* key) {
  return {key, Unit::bandwidth, &of_link<Link, &LinkSpec::bandwidth>, 1e6, 1e13, 1e10};
}

}  // namespace

std::string Knob::section() const {
  const std::string name = key;
  const auto dot = name.find('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

std::string Knob::field() const {
  const std::string name = key;
  const auto dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

const std::vector<Knob>& knobs() {
  static const std::vector<Knob> list = {
      {"nic_message_time", Unit::time, &top<&PlatformSpec::nic_message_time>, 1e-9, 1e-4, 1e-7},
      {"match_time", Unit::time, &top<&PlatformSpec::match_time>, 1e-12, 1e-6, 1e-9},
      {"message_overhead", Unit::time, &top<&PlatformSpec::message_overhead>, 1e-9, 1e-4, 5e-7},
      {"memory_copy_bandwidth", Unit::bandwidth, &top<&PlatformSpec::memory_copy_bandwidth>, 1e8,
       1e13, 1e10},
      {"node_memory_bandwidth", Unit::bandwidth, &top<&PlatformSpec::node_memory_bandwidth>, 1e9,
       1e14, 1e11},
      {"eager_threshold", Unit::bytes, &top<&PlatformSpec::eager_threshold>, 1, 16777216, 8192},
      latency_of<&PlatformSpec::link>("link.latency"),
      bandwidth_of<&PlatformSpec::link>("link.bandwidth"),
      latency_of<&PlatformSpec::injection>("injection.latency"),
      bandwidth_of<&PlatformSpec::injection>("injection.bandwidth"),
      latency_of<&PlatformSpec::global_link>("global_link.latency"),
      bandwidth_of<&PlatformSpec::global_link>("global_link.bandwidth"),
      latency_of<&PlatformSpec::intra_node>("intra_node.latency"),
      bandwidth_of<&PlatformSpec::intra_node>("intra_node.bandwidth"),
  };
  return list;
}

const Knob& knob(const std::string& key, const PlatformSpec& platform) {
  for (const Knob& k : knobs()) {
    if (k.key != key) continue;
    if (!k.section().empty() && !topology_has_link(platform.topology, k.section()))
      throw InputError("--fit " + key + ": platform " + platform.name + " (" +
                       topology_name(platform.topology) + ") has no " + k.section() + " link");
    return k;
  }
  std::string names;
  for (const Knob& k : knobs())
    names += (names.empty() ? "" : ", ") + std::string(k.key);
  throw InputError("--fit " + key + ": not a parameter calibrate can fit (known: " + names + ")");
}

std::string yaml_value(Unit unit, double value) {
  char text[64];
  switch (unit) {
    case Unit::time: {
      // In the unit that keeps the number below 1,000 (10us, not 1e+04ns).
      const char* suffix = value >= 1e-3 ? "ms" : value >= 1e-6 ? "us" : "ns";
      const double scale = value >= 1e-3 ? 1e3 : value >= 1e-6 ? 1e6 : 1e9;
      std::snprintf(text, sizeof text, "%.4g%s", value * scale, suffix);
      break;
    }
    case Unit::bandwidth:
      std::snprintf(text, sizeof text, "%.4gGBps", value * 1e-9);
      break;
    case Unit::bytes:
      std::snprintf(text, sizeof text, "%.0fB", std::round(value));
      break;
  }
  return text;
}

}  // namespace a2a::sim::calibrate
