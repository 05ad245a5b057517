// One YAML document without duplicate keys; see yaml_document.hpp.
#include "platforms/yaml_document.hpp"

#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

#include "algorithms/errors.hpp"

namespace a2a {

namespace {

std::string line_of(const YAML::Mark& mark) {
  return mark.line >= 0 ? std::to_string(mark.line + 1) : "?";
}

// Walks every mapping of the tree once; `path` is the dotted key of `node` ("" at the top).
// `visited` holds the collections already walked, by where they start: an alias shares its
// anchor's node, so `&a [*a]` (a node containing itself, which yaml-cpp builds) ends the walk
// instead of recursing for ever, and nested aliases are not walked again and again.
void reject_duplicate_keys(const YAML::Node& node, const std::string& path,
                           const std::string& origin, std::set<int>& visited) {
  if (!node.IsSequence() && !node.IsMap()) return;
  if (!visited.insert(node.Mark().pos).second) return;
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i)
      reject_duplicate_keys(node[i], path + "[" + std::to_string(i) + "]", origin, visited);
    return;
  }
  std::map<std::string, YAML::Mark> seen;
  for (const auto& item : node) {
    // Keys that are lists or mappings are each loader's error to name; only names can repeat.
    if (!item.first.IsScalar()) continue;
    const std::string key = item.first.Scalar();
    const std::string full = path.empty() ? key : path + "." + key;
    const auto [first, inserted] = seen.emplace(key, item.first.Mark());
    if (!inserted) {
      throw InputError(origin + ":" + line_of(item.first.Mark()) + ": key '" + full +
                       "' given twice (first at line " + line_of(first->second) + ")");
    }
    reject_duplicate_keys(item.second, full, origin, visited);
  }
}

// Notes where each document starts and ignores the rest of the parse.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Where a second document starts, if the text has one. The parser is asked for two documents at
// most: YAML::LoadAll loops for ever on some malformed input (yaml-cpp 0.7; found by
// fuzz_scenario on ",\xbf r h`").
std::optional<YAML::Mark> second_document(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  if (!parser.HandleNextDocument(starts)) return std::nullopt;
  if (!parser.HandleNextDocument(starts)) return std::nullopt;
  return starts.starts.size() > 1 ? starts.starts[1] : YAML::Mark::null_mark();
}

}  // namespace

YAML::Node parse_single_document(const std::string& text, const std::string& origin,
                                 const std::string& key) {
  const YAML::Node root = YAML::Load(text);
  if (const auto second = second_document(text)) {
    throw InputError(origin + ":" + line_of(*second) +
                     ": a second YAML document: one document per file");
  }
  std::set<int> visited;
  reject_duplicate_keys(root, key, origin, visited);
  return root;
}

}  // namespace a2a
