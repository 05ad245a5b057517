// Workload specs ("name" or "name:key=value,key=value"), the catalog of families, and
// make_workload. The families themselves live in simple.cpp, random_sizes.cpp, powerlaw.cpp,
// fft.cpp and zhuang.cpp; docs/workloads.md defines them. matrix.cpp reads
// a recorded P x P matrix from a file instead.
//
// Conventions shared by every family:
// - Sizes given in options are BYTES; count() returns ELEMENTS of elem bytes (option elem, default
//   8 = FP64), a size being floored to whole elements. zhuang's n is already in elements.
// - Options are integers unless stated (x and density are reals); a value that does not parse,
//   lies outside its range, is given twice, or names an option the family does not have is an
//   InvalidParameter naming the option.
// - Random families (uniform, normal, sparse, powerlaw) take seed=N (default 1); the others have no
//   seed option. Their counts are pure functions of (seed, src, dst): see counter_rng.hpp.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

#include "algorithms/errors.hpp"
#include "workloads/workload_family.hpp"

namespace a2a {

namespace workload_detail {

OptionReader::OptionReader(std::string family,
                           std::vector<std::pair<std::string, std::string>> given)
    : family_(std::move(family)) {
  for (auto& [key, value] : given) {
    for (const auto& earlier : given_) {
      if (earlier.key == key) fail("option " + key + " given twice");
    }
    given_.push_back({std::move(key), std::move(value)});
  }
}

const OptionReader::Given* OptionReader::take(std::string_view key) {
  known_keys_.emplace_back(key);
  for (auto& item : given_) {
    if (item.key == key) {
      item.read = true;
      return &item;
    }
  }
  return nullptr;
}

void OptionReader::record(std::string_view key, const std::string& value) {
  canonical_options_ += (canonical_options_.empty() ? "" : ",") + std::string(key) + "=" + value;
}

std::int64_t OptionReader::integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                                   std::int64_t max, std::string_view max_label) {
  std::int64_t value = fallback;
  if (const Given* item = take(key)) {
    const std::string& text = item->value;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc::result_out_of_range) {
      fail("option " + item->key + "=" + text + " is out of range [" + std::to_string(min) + ", " +
           std::to_string(max) + "]");
    }
    if (ec != std::errc() || ptr != end || text.empty()) {
      fail("option " + item->key + "=" + text + " must be an integer");
    }
    const std::string shown = "option " + item->key + "=" + text;
    if (value < min) fail(shown + " must be >= " + std::to_string(min));
    if (value > max) {
      fail(shown + " must be <= " + std::to_string(max) +
           (max_label.empty() ? "" : " (" + std::string(max_label) + ")"));
    }
  }
  record(key, std::to_string(value));
  return value;
}

std::string OptionReader::text(std::string_view key, std::string_view fallback) {
  std::string value(fallback);
  if (const Given* item = take(key)) value = item->value;
  record(key, value);
  return value;
}

std::string OptionReader::choice(std::string_view key, std::string_view fallback,
                                 std::initializer_list<std::string_view> choices) {
  std::string value = text(key, fallback);
  std::string listed;
  for (std::string_view option : choices) {
    if (option == value) return value;
    listed += (listed.empty() ? "" : ", ") + std::string(option);
  }
  fail("option " + std::string(key) + "=" + value + " must be one of: " + listed);
}

double OptionReader::real(std::string_view key, double fallback, double min, double max) {
  double value = fallback;
  if (const Given* item = take(key)) {
    const std::string& text = item->value;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty() || !std::isfinite(value)) {
      fail("option " + item->key + "=" + text + " must be a number");
    }
    if (value < min || value > max) {
      char bounds[64];
      auto lo = std::to_chars(bounds, bounds + 32, min).ptr;
      auto hi = std::to_chars(bounds + 32, bounds + 64, max).ptr;
      fail("option " + item->key + "=" + text + " must be in [" + std::string(bounds, lo) + ", " +
           std::string(bounds + 32, hi) + "]");
    }
  }
  char shortest[32];
  auto stop = std::to_chars(shortest, shortest + sizeof shortest, value).ptr;
  record(key, std::string(shortest, stop));
  return value;
}

std::string OptionReader::finish() const {
  for (const auto& item : given_) {
    if (item.read) continue;
    std::string known;
    for (const auto& key : known_keys_)
      known += (known.empty() ? "" : ", ") + key;
    fail("unknown option '" + item.key + "' (options: " + (known.empty() ? "none" : known) + ")");
  }
  return canonical_options_.empty() ? family_ : family_ + ":" + canonical_options_;
}

void OptionReader::fail(const std::string& what) const {
  throw InvalidParameter("workload " + family_ + ": " + what);
}

namespace {

const std::vector<WorkloadFamily>& families() {
  static const std::vector<WorkloadFamily> all = [] {
    std::vector<WorkloadFamily> out;
    for (auto part : {simple_families, random_families, powerlaw_families, fft_families,
                      zhuang_families, matrix_families}) {
      for (auto& family : part())
        out.push_back(std::move(family));
    }
    return out;
  }();
  return all;
}

// "key=value,key=value" -> pairs; rejects empty items, missing '=', empty keys and values.
std::vector<std::pair<std::string, std::string>> split_options(const std::string& family,
                                                               const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      throw InvalidParameter("workload " + family + ": expected key=value, got '" + item + "'");
    }
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

}  // namespace workload_detail

std::int64_t Workload::run_count(int src, int dst, int src_step, int dst_step,
                                 std::int64_t n) const {
  if (uniform()) return n > 0 ? n * count(src, dst) : 0;
  std::int64_t total = 0;
  for_each_in_run(ranks_, src, dst, src_step, dst_step, n,
                  [&](int s, int d) { total += count(s, d); });
  return total;
}

std::int64_t Workload::row_max(int src) const {
  if (uniform()) return count(src, 0);
  std::int64_t largest = 0;
  for (int d = 0; d < ranks_; ++d)
    largest = std::max(largest, count(src, d));
  return largest;
}

const std::vector<WorkloadInfo>& workload_catalog() {
  static const std::vector<WorkloadInfo> infos = [] {
    std::vector<WorkloadInfo> out;
    for (const auto& family : workload_detail::families())
      out.push_back(family.info);
    return out;
  }();
  return infos;
}

std::unique_ptr<Workload> make_workload(const std::string& spec, int ranks) {
  const std::size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  for (const auto& family : workload_detail::families()) {
    if (family.info.name != name) continue;
    if (ranks < 1) {
      throw InvalidParameter("workload " + name + ": P=" + std::to_string(ranks) +
                             " ranks, must be >= 1");
    }
    std::vector<std::pair<std::string, std::string>> given;
    if (colon != std::string::npos) {
      given = workload_detail::split_options(name, spec.substr(colon + 1));
    }
    workload_detail::OptionReader options(name, std::move(given));
    return family.make(options, ranks);
  }
  std::string known;
  for (const auto& family : workload_detail::families()) {
    known += (known.empty() ? "" : ", ") + family.info.name;
  }
  throw InvalidParameter("unknown workload '" + name + "' (known: " + known + ")");
}

}  // namespace a2a
