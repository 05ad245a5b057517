// The platform file `a2a calibrate` writes: the original YAML with the fitted values in place,
// its comments (the sources of every other number) kept.
#pragma once

#include <string>
#include <vector>

#include "platforms/platform.hpp"
#include "sim/calibrate/knobs.hpp"

namespace a2a::sim::calibrate {

// `text` (the platform's YAML, block style or one flow mapping) with name NAME_calibrated and the
// `fitted` parameters set to `values`. A link section the text leaves out is written whole; when
// `link` is fitted, the injection and global links that took their values from it are written
// with those values, so that only what was fitted changes.
std::string calibrated_yaml(const std::string& text, const PlatformSpec& base,
                            const std::vector<const Knob*>& fitted,
                            const std::vector<double>& values, const std::string& provenance);

}  // namespace a2a::sim::calibrate
