// The one way a2a reads a YAML file (scenarios, sweeps, platforms): exactly one document, and no
// mapping that gives a key twice. yaml-cpp accepts both silently — it keeps every pair of a
// mapping, so a loader walking the pairs would keep the last value of a key given twice
// (`ranks: 8` then `ranks: 16`), and YAML::Load reads only the first document of a file.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace a2a {

// Parses `text` (named `origin` in errors). Throws InputError
// "ORIGIN:LINE: key 'a.b' given twice (first at line N)" or
// "ORIGIN:LINE: a second YAML document: one document per file"; a syntax error escapes as
// YAML::ParserException for the caller to word as it does. `key` names the document's place in a
// larger one (a --set value's key), prefixing the keys named in errors.
YAML::Node parse_single_document(const std::string& text, const std::string& origin,
                                 const std::string& key = "");

}  // namespace a2a
