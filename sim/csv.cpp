// CSV records; see csv.hpp.
#include "sim/csv.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "algorithms/errors.hpp"

namespace a2a::sim {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read: " + std::strerror(errno));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

CsvRecords parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  size_t line = 1, record_line = 1;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        line += c == '\n';
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
      record_line = ++line;
    } else if (c != '\r') {
      field += c;
    }
  }
  const bool cut = quoted || !field.empty() || !record.empty();
  return {std::move(records), cut ? record_line : 0};
}

}  // namespace a2a::sim
