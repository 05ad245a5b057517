// The platform file `a2a calibrate` writes (sim/calibrate/calibrated_yaml.hpp) and the parameters
// it can fit (sim/calibrate/knobs.hpp): the fitted values land where the loader reads them, every
// other value and comment stays, and a link the platform cannot have is refused.
#include <doctest/doctest.h>

#include <string>

#include "algorithms/errors.hpp"
#include "platforms/platform.hpp"
#include "sim/calibrate/calibrated_yaml.hpp"
#include "sim/calibrate/knobs.hpp"
#include "tests/approx.hpp"

using namespace a2a;
using namespace a2a::sim::calibrate;

namespace {

const char* kTorus = R"(# a test torus
name: t
topology:
  kind: torus
  dims: [2, 2]
link:
  bandwidth: 1GBps   # chosen
  latency: 1us       # chosen
ranks_per_node: 2
intra_node: {bandwidth: 4GBps, latency: 100ns}
message_overhead: 1us  # chosen
)";

struct Written {
  std::string text;
  PlatformSpec spec;
};

Written calibrate(const std::string& text, const std::vector<std::string>& keys,
                  const std::vector<double>& values) {
  const PlatformSpec base = parse_platform(text, "test.yaml");
  std::vector<const Knob*> fitted;
  for (const std::string& key : keys)
    fitted.push_back(&knob(key, base));
  const std::string out = calibrated_yaml(text, base, fitted, values, "a test");
  return {out, parse_platform(out, "calibrated.yaml")};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("calibrated yaml: a top-level term and a link's latency replaced in place") {
  const Written w = calibrate(kTorus, {"message_overhead", "link.latency"}, {2.5e-6, 3e-6});
  CHECK(w.spec.name == "t_calibrated");
  CHECK(w.spec.message_overhead == a2a::testing::approx(2.5e-6));
  CHECK(w.spec.link.latency == a2a::testing::approx(3e-6));
  CHECK(w.spec.link.bandwidth == a2a::testing::approx(1e9));
  CHECK(contains(w.text, "# a test torus"));
  CHECK(contains(w.text, "bandwidth: 1GBps   # chosen"));
  CHECK(contains(w.text, "  latency: 3us  # calibrated (see name)"));
}

TEST_CASE("calibrated yaml: fitting the link keeps the injection link that defaulted to it") {
  // Without an injection section a torus's injection link is a copy of `link`; the written file
  // must keep the old copy, since only `link` was fitted.
  const Written w = calibrate(kTorus, {"link.latency"}, {5e-6});
  CHECK(w.spec.link.latency == a2a::testing::approx(5e-6));
  CHECK(w.spec.injection.latency == a2a::testing::approx(1e-6));
  CHECK(w.spec.injection.bandwidth == a2a::testing::approx(1e9));
}

TEST_CASE("calibrated yaml: a link the file leaves out is written whole") {
  const Written w = calibrate(kTorus, {"injection.bandwidth"}, {8e9});
  CHECK(w.spec.injection.bandwidth == a2a::testing::approx(8e9));
  CHECK(w.spec.injection.latency == a2a::testing::approx(1e-6));  // link's, as before
  CHECK(w.spec.link.bandwidth == a2a::testing::approx(1e9));
}

TEST_CASE("calibrated yaml: a link written inline, and a platform written as one flow mapping") {
  const Written inline_link = calibrate(kTorus, {"intra_node.latency"}, {250e-9});
  CHECK(inline_link.spec.intra_node.latency == a2a::testing::approx(250e-9));
  CHECK(inline_link.spec.intra_node.bandwidth == a2a::testing::approx(4e9));
  CHECK(contains(inline_link.text, "# a test torus"));

  const std::string flow =
      R"({"name": "s", "topology": {"kind": "star", "nodes": 4}, "link": {"bandwidth": "10GBps",)"
      R"( "latency": "10us"}, "ranks_per_node": 2, "intra_node": {"bandwidth": "10GBps",)"
      R"( "latency": "1us"}})";
  const Written w = calibrate(flow, {"link.latency", "nic_message_time"}, {7e-6, 3e-7});
  CHECK(w.spec.link.latency == a2a::testing::approx(7e-6));
  CHECK(w.spec.nic_message_time == a2a::testing::approx(3e-7));
  CHECK(w.spec.name == "s_calibrated");
}

TEST_CASE("calibrate knobs: a link the topology does not have is refused, naming it") {
  const PlatformSpec torus = parse_platform(kTorus, "test.yaml");
  CHECK_THROWS_WITH_AS(knob("global_link.latency", torus),
                       "--fit global_link.latency: platform t (torus) has no global_link link",
                       InputError);
  CHECK_THROWS_AS(knob("link.speed", torus), InputError);
  CHECK(yaml_value(Unit::time, 1e-5) == "10us");
  CHECK(yaml_value(Unit::time, 3e-7) == "300ns");
  CHECK(yaml_value(Unit::time, 2e-3) == "2ms");
}

TEST_CASE("calibrated yaml: CRLF lines, comments kept beside what was fitted, link's text copied") {
  std::string crlf;
  for (const char c : std::string(kTorus)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const Written w = calibrate(crlf, {"link.latency"}, {2e-6});
  CHECK(w.spec.link.latency == a2a::testing::approx(2e-6));
  CHECK(contains(w.text, "latency: 2us  # calibrated (see name); was 1us       # chosen"));

  // An inline section keeps its comment; a section written out from `link` copies its text.
  const std::string text = R"(name: d
topology: {kind: torus, dims: [2, 2]}
link: {bandwidth: 1.23456GBps, latency: 1us}  # the source
ranks_per_node: 2
intra_node: {bandwidth: 4GBps, latency: 100ns}
)";
  const Written d = calibrate(text, {"link.latency"}, {3e-6});
  CHECK(contains(d.text, "link:  # the source"));
  CHECK(contains(d.text, "bandwidth: 1.23456GBps  # link's value before calibration"));
  CHECK(d.spec.injection.bandwidth == 1.23456e9);
  CHECK(d.spec.injection.latency == a2a::testing::approx(1e-6));
}
