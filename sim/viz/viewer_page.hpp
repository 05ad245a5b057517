// The step viewer page (`a2a viz`, docs/viewer.md): one self-contained HTML file, the template
// sim/viz/viewer.html (inline CSS and JavaScript, no external resource) with a recording embedded
// as JSON.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/recorder/recording.hpp"

namespace a2a::sim::viz {

// The template, embedded at build time (embed_viewer.cmake).
std::string_view viewer_template();

// The recording as the page's JSON (format in docs/viewer.md, "The recording format"): ops and
// messages flattened into integer arrays to keep P = 64 pages small.
nlohmann::json recording_json(const recorder::Recording& recording);

// The page: the template with the recording in place of its marker.
std::string viewer_html(const recorder::Recording& recording);

}  // namespace a2a::sim::viz
