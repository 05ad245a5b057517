// Unit parsing for platform descriptions (platforms/units.hpp).
#include "platforms/units.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace a2a {

namespace {

using UnitTable = std::vector<std::pair<std::string, double>>;

std::string unit_list(const UnitTable& units) {
  std::string out;
  for (const auto& [name, factor] : units)
    out += (out.empty() ? "" : ", ") + name;
  return out;
}

// Splits "25 GBps" into 25 and "GBps", then scales by the unit. An empty unit means base units.
double parse_quantity(const std::string& text, const UnitTable& units, const char* what,
                      const char* example) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  while (first < last && *first == ' ')
    ++first;
  while (last > first && last[-1] == ' ')
    --last;
  double value = 0;
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end == first)
    throw std::invalid_argument("'" + text + "' is not a " + what +
                                " (a number and a unit, e.g. '" + example + "')");
  if (!std::isfinite(value)) throw std::invalid_argument("'" + text + "' is not finite");
  const char* unit_begin = end;
  while (unit_begin < last && *unit_begin == ' ')
    ++unit_begin;
  const std::string unit(unit_begin, last);
  if (unit.empty()) return value;
  for (const auto& [name, factor] : units)
    if (unit == name) return value * factor;
  throw std::invalid_argument("unknown unit '" + unit + "' in '" + text + "' (expected one of " +
                              unit_list(units) + ")");
}

}  // namespace

double parse_bandwidth(const std::string& text) {
  static const UnitTable units = {{"Bps", 1.0},
                                  {"kBps", 1e3},
                                  {"KBps", 1e3},
                                  {"MBps", 1e6},
                                  {"GBps", 1e9},
                                  {"TBps", 1e12},
                                  {"KiBps", 1024.0},
                                  {"MiBps", 1048576.0},
                                  {"GiBps", 1073741824.0},
                                  {"TiBps", 1099511627776.0},
                                  {"bps", 1.0 / 8},
                                  {"kbps", 1e3 / 8},
                                  {"Kbps", 1e3 / 8},
                                  {"Mbps", 1e6 / 8},
                                  {"Gbps", 1e9 / 8},
                                  {"Tbps", 1e12 / 8}};
  return parse_quantity(text, units, "bandwidth", "25GBps");
}

double parse_time(const std::string& text) {
  static const UnitTable units = {
      {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6}, {"ns", 1e-9}};
  return parse_quantity(text, units, "time", "1us");
}

double parse_bytes(const std::string& text) {
  static const UnitTable units = {{"B", 1.0},         {"kB", 1e3},          {"KB", 1e3},
                                  {"MB", 1e6},        {"GB", 1e9},          {"KiB", 1024.0},
                                  {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  return parse_quantity(text, units, "size", "8KiB");
}

}  // namespace a2a
