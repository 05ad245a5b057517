#include "sim/calibrate/calibrated_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <sstream>

namespace a2a::sim::calibrate {

namespace {

// One key to set: top-level (empty section) or in a link's section. Not `fitted`: a value written
// out unchanged (a section that defaulted to `link`, written whole).
struct Edit {
  std::string section;
  std::string key;
  std::string value;
  bool fitted = true;
};

// The comment after a value written: what it is, and what the line said before (its source).
std::string note_of(const Edit& edit, const std::string& before = "") {
  std::string note =
      edit.fitted ? "  # calibrated (see name)" : "  # link's value before calibration";
  if (!before.empty()) note += "; was " + before;
  return note;
}

// What a line `key: value  # comment` says after its key: "value  # comment".
std::string after_key(const std::string& rest) {
  const size_t colon = rest.find(':');
  const size_t start = rest.find_first_not_of(' ', colon + 1);
  return start == std::string::npos ? "" : rest.substr(start);
}

bool has_edit(const std::vector<Edit>& edits, const std::string& section) {
  return std::any_of(edits.begin(), edits.end(),
                     [&](const Edit& e) { return e.section == section; });
}

// A link section the text leaves out (injection or global_link) took `link`'s values: it is
// written whole, with link's values as the text has them and the fitted ones in their place.
void add_whole_section(std::vector<Edit>& edits, const YAML::Node& root, const std::string& section,
                       const std::vector<const Knob*>& fitted, const std::vector<double>& values) {
  for (const auto& item : root["link"]) {
    const std::string key = item.first.as<std::string>();
    Edit edit{section, key, item.second.as<std::string>(), false};
    for (size_t i = 0; i < fitted.size(); ++i) {
      if (fitted[i]->section() == section && fitted[i]->field() == key)
        edit = {section, key, yaml_value(fitted[i]->unit, values[i]), true};
    }
    edits.push_back(edit);
  }
}

// What to set in the text: each fitted value; a section the text leaves out, whole (with the
// fitted values); and, when `link` was fitted, the sections that defaulted to it, at their
// values before the fit.
std::vector<Edit> edits_of(const YAML::Node& root, const PlatformSpec& base,
                           const std::vector<const Knob*>& fitted,
                           const std::vector<double>& values) {
  std::vector<Edit> edits;
  for (size_t i = 0; i < fitted.size(); ++i) {
    const std::string section = fitted[i]->section();
    if (section.empty() || root[section]) {
      edits.push_back({section, fitted[i]->field(), yaml_value(fitted[i]->unit, values[i])});
    } else if (!has_edit(edits, section)) {
      add_whole_section(edits, root, section, fitted, values);
    }
  }
  if (has_edit(edits, "link")) {
    for (const char* defaulted : {"injection", "global_link"}) {
      if (topology_has_link(base.topology, defaulted) && !root[defaulted] &&
          !has_edit(edits, defaulted))
        add_whole_section(edits, root, defaulted, {}, {});
    }
  }
  return edits;
}

// A platform written as one flow mapping (JSON is YAML) has no key lines to replace: its keys are
// set in the parsed mapping and emitted again, in block style (JSON has no comments to keep).
void set_block_style(YAML::Node node) {
  if (!node.IsMap() && !node.IsSequence()) return;
  node.SetStyle(YAML::EmitterStyle::Block);
  for (auto item : node)
    set_block_style(node.IsMap() ? item.second : item);
}

std::string edited_flow_yaml(YAML::Node root, const std::vector<Edit>& edits,
                             const std::string& name, const std::string& provenance) {
  root["name"] = name;
  for (const Edit& e : edits) {
    if (e.section.empty()) {
      root[e.key] = e.value;
    } else {
      root[e.section][e.key] = e.value;
    }
  }
  set_block_style(root);
  YAML::Emitter out;
  out << root;
  return "# " + name + ": " + provenance + "\n" + out.c_str() + "\n";
}

bool starts_with_key(const std::string& text, const std::string& key) {
  return text.rfind(key + ":", 0) == 0;
}

// A line of a block-style file: its indentation, the rest, and the top-level key whose block it is
// in.
struct Line {
  std::string text, indent, rest, section;
  bool indented() const { return !indent.empty(); }
  bool header() const { return !indented() && !rest.empty() && rest[0] != '#'; }
};

std::vector<Line> lines_of(const std::string& text) {
  std::vector<Line> lines;
  std::istringstream in(text);
  std::string text_line, section;
  while (std::getline(in, text_line)) {
    if (!text_line.empty() && text_line.back() == '\r') text_line.pop_back();  // CRLF files
    Line line;
    line.text = text_line;
    const size_t body = std::min(text_line.size(), text_line.find_first_not_of(' '));
    line.indent = text_line.substr(0, body);
    line.rest = text_line.substr(body);
    if (line.header()) section = line.rest.substr(0, line.rest.find(':'));
    line.section = section;
    lines.push_back(line);
  }
  return lines;
}

// The keys of a section written inline (`link: {bandwidth: 10GBps, latency: 1us}  # source`), as
// block lines with the edits applied; the header keeps the line's comment.
std::vector<std::string> expanded_section(const YAML::Node& root, const Line& header,
                                          const std::vector<Edit>& edits,
                                          std::vector<bool>& written) {
  const size_t comment = header.rest.find('#', header.rest.rfind('}'));
  std::vector<std::string> out = {
      header.section + ":" +
      (comment == std::string::npos ? "" : "  " + header.rest.substr(comment))};
  for (const auto& item : root[header.section]) {
    const std::string key = item.first.as<std::string>();
    const std::string before = item.second.as<std::string>();
    std::string line = "  " + key + ": " + before;
    for (size_t i = 0; i < edits.size(); ++i) {
      if (edits[i].section == header.section && edits[i].key == key) {
        line = "  " + key + ": " + edits[i].value + note_of(edits[i], before);
        written[i] = true;
      }
    }
    out.push_back(line);
  }
  return out;
}

// Block style, line by line, so that every comment (the source of each number) stays. Keys missing
// from a section go right under its header; missing top-level keys and sections at the end.
std::string edited_block_yaml(const std::string& text, const YAML::Node& root,
                              const std::vector<Edit>& edits, const std::string& name,
                              const std::string& provenance) {
  std::vector<bool> written(edits.size(), false);
  std::vector<std::string> out;
  for (const Line& line : lines_of(text)) {
    if (line.header() && starts_with_key(line.rest, "name")) {
      out.push_back("name: " + name + "  # " + provenance);
      continue;
    }
    const bool inline_section =
        line.header() && line.rest.find('{') != std::string::npos && has_edit(edits, line.section);
    if (inline_section) {
      for (const std::string& expanded : expanded_section(root, line, edits, written))
        out.push_back(expanded);
      continue;
    }
    std::string replaced = line.text;
    for (size_t i = 0; i < edits.size(); ++i) {
      const Edit& e = edits[i];
      const bool here = e.section.empty() ? line.header() && starts_with_key(line.rest, e.key)
                                          : line.indented() && line.section == e.section &&
                                                starts_with_key(line.rest, e.key);
      if (!here) continue;
      replaced = line.indent + e.key + ": " + e.value + note_of(e, after_key(line.rest));
      written[i] = true;
    }
    out.push_back(replaced);
    if (line.header() && root[line.section].IsMap()) {
      for (size_t i = 0; i < edits.size(); ++i) {
        const Edit& e = edits[i];
        // Placed under the header now; the key's own line, if the section has one, comes later
        // and would be replaced instead, so only keys the parsed section lacks are placed here.
        if (e.section == line.section && !root[e.section][e.key]) {
          out.push_back("  " + e.key + ": " + e.value + note_of(e));
          written[i] = true;
        }
      }
    }
  }
  std::string appended_section;
  for (size_t i = 0; i < edits.size(); ++i) {
    if (written[i]) continue;
    const Edit& e = edits[i];
    if (e.section.empty()) {
      out.push_back(e.key + ": " + e.value + note_of(e));
      continue;
    }
    if (e.section != appended_section) out.push_back(e.section + ":");
    appended_section = e.section;
    out.push_back("  " + e.key + ": " + e.value + note_of(e));
  }
  std::string joined;
  for (const std::string& l : out)
    joined += l + "\n";
  return joined;
}

}  // namespace

std::string calibrated_yaml(const std::string& text, const PlatformSpec& base,
                            const std::vector<const Knob*>& fitted,
                            const std::vector<double>& values, const std::string& provenance) {
  const YAML::Node root = YAML::Load(text);
  const std::vector<Edit> edits = edits_of(root, base, fitted, values);
  const std::string name = base.name + "_calibrated";
  if (root.IsMap() && root.Style() == YAML::EmitterStyle::Flow)
    return edited_flow_yaml(root, edits, name, provenance);
  return edited_block_yaml(text, root, edits, name, provenance);
}

}  // namespace a2a::sim::calibrate
