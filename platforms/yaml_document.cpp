// One YAML document without duplicate keys; see yaml_document.hpp.
#include "platforms/yaml_document.hpp"

#include <map>
#include <vector>

#include "algorithms/errors.hpp"

namespace a2a {

namespace {

std::string line_of(const YAML::Mark& mark) {
  return mark.line >= 0 ? std::to_string(mark.line + 1) : "?";
}

// Walks every mapping of the tree; `path` is the dotted key of `node` ("" at the top).
void reject_duplicate_keys(const YAML::Node& node, const std::string& path,
                           const std::string& origin) {
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i)
      reject_duplicate_keys(node[i], path + "[" + std::to_string(i) + "]", origin);
    return;
  }
  if (!node.IsMap()) return;
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
    reject_duplicate_keys(item.second, full, origin);
  }
}

}  // namespace

YAML::Node parse_single_document(const std::string& text, const std::string& origin,
                                 const std::string& key) {
  const std::vector<YAML::Node> documents = YAML::LoadAll(text);
  if (documents.size() > 1) {
    throw InputError(origin + ":" + line_of(documents[1].Mark()) +
                     ": a second YAML document: one document per file");
  }
  const YAML::Node root = documents.empty() ? YAML::Node() : documents.front();
  reject_duplicate_keys(root, key, origin);
  return root;
}

}  // namespace a2a
