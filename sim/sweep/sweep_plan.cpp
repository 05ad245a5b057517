// Plans a sweep's rows and groups them by simulation process; see sweep_plan.hpp.
#include "sim/sweep/sweep_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "algorithms/errors.hpp"

namespace a2a::sim {

namespace {

// Skipped configurations, each reported once however many grid points it was skipped at.
class SkipReport {
 public:
  void add(const std::string& what) {
    if (counts_[what]++ == 0) order_.push_back(what);
  }
  bool empty() const { return order_.empty(); }
  const std::string& first() const { return order_.front(); }
  void print() const {
    for (const std::string& what : order_) {
      const int count = counts_.at(what);
      std::fprintf(stderr, "a2a sweep: skipped %s%s\n", what.c_str(),
                   count > 1 ? (" (at " + std::to_string(count) + " grid points)").c_str() : "");
    }
  }

 private:
  std::vector<std::string> order_;
  std::map<std::string, int> counts_;
};

// One entry's parameter choices split into single values ("radix: [2, 64]" -> radix=2, radix=64),
// so a value out of range at one P skips only itself there; `all` stays whole (expand() resolves
// it per P). Parameters vary in the algorithm's own order, the last fastest.
std::vector<ParamChoices> single_choices(const AlgorithmEntry& entry) {
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;
  for (const auto& [name, text] : entry.params) {
    std::vector<std::string> values;
    std::stringstream list(text);
    for (std::string value; std::getline(list, value, ',');)
      values.push_back(value);
    axes.emplace_back(name, values);
  }
  if (entry.name != "all") {
    const auto& specs = find_algorithm(entry.name).params;
    const auto position = [&](const std::string& name) {
      return std::find_if(specs.begin(), specs.end(),
                          [&](const ParamSpec& spec) { return spec.name == name; }) -
             specs.begin();
    };
    std::stable_sort(axes.begin(), axes.end(), [&](const auto& a, const auto& b) {
      return position(a.first) < position(b.first);
    });
  }
  std::vector<ParamChoices> out(1);
  for (const auto& [name, values] : axes) {
    std::vector<ParamChoices> next;
    for (const ParamChoices& partial : out) {
      for (const std::string& value : values) {
        next.push_back(partial);
        next.back()[name] = value;
      }
    }
    out = std::move(next);
  }
  return out;
}

std::string choices_text(const std::string& name, const ParamChoices& choices) {
  std::string out = name;
  for (const auto& [key, value] : choices)
    out += " " + key + "=" + value;
  return out;
}

class Planner {
 public:
  explicit Planner(SweepPlan& plan) : plan_(plan) {}

  void add_point(size_t index) {
    const GridPoint& point = plan_.points[index];
    const Scenario& scenario = point.scenario;
    PlatformSpec platform = platform_of(point);
    if (scenario.ranks_per_node > 0) platform.ranks_per_node = scenario.ranks_per_node;
    try {
      check_fits(platform, scenario.ranks);
    } catch (const InvalidParameter& error) {
      skips_.add("P=" + std::to_string(scenario.ranks) + " on " + scenario.platform + ": " +
                 error.what());
      return;
    }
    std::unique_ptr<Workload> workload;
    try {
      workload = make_workload(scenario.workload, scenario.ranks);
    } catch (const InvalidParameter& error) {
      throw InputError(point.where.at("workload") + ": key 'workload': " + error.what());
    }
    const size_t group = group_of(scenario, platform);
    for (size_t e = 0; e < scenario.algorithms.size(); ++e) {
      const AlgorithmEntry& entry = scenario.algorithms[e];
      for (const ParamChoices& choices : single_choices(entry)) {
        add_rows(index, group, e, entry, choices, *workload);
      }
    }
  }

  // Throws for a configuration the sweep names that applies at no grid point: a mistake, not a
  // skip. Then reports the skips.
  void finish(bool report) const {
    for (const auto& [what, first_error] : invalid_everywhere_) {
      if (!valid_somewhere_.count(what)) throw InputError(first_error);
    }
    if (plan_.rows.empty()) {
      throw InputError(plan_.origin + ": no configuration of the grid applies" +
                       (skips_.empty() ? std::string() : " (skipped " + skips_.first() + ")"));
    }
    if (report) skips_.print();
  }

 private:
  void add_rows(size_t point, size_t group, size_t e, const AlgorithmEntry& entry,
                const ParamChoices& choices, const Workload& workload) {
    const std::string what = std::to_string(e) + ":" + choices_text(entry.name, choices);
    const SimGroup& sim = plan_.groups[group];
    std::vector<Planned> planned;
    try {
      planned = plan(Selection{{entry.name}, choices}, workload, sim.platform.ranks_per_node);
    } catch (const InvalidParameter& error) {
      invalid_everywhere_.emplace(what,
                                  entry.where + ": algorithm " + entry.name + ": " + error.what());
      skips_.add(choices_text(entry.name, choices) + " at P=" + std::to_string(sim.ranks) + ": " +
                 error.what());
      return;
    }
    valid_somewhere_.insert(what);
    for (Planned& item : planned) {
      if (item.skip) {
        skips_.add(item.config.label() + ": " + *item.skip);
        continue;
      }
      SweepRow row;
      row.group = group;
      row.point = point;
      row.workload = plan_.points[point].scenario.workload;
      row.identity = identity_cells(
          {sim.platform_name, sim.engine, sim.ranks, sim.platform.ranks_per_node, row.workload,
           plan_.points[point].block_bytes, sim.options.vendor, sim.options.tolerance},
          item.config);
      if (!keys_.insert(row_key(row.identity)).second) continue;  // named twice in the sweep
      row.planned = std::move(item);
      plan_.rows.push_back(std::move(row));
    }
  }

  PlatformSpec platform_of(const GridPoint& point) {
    const std::string& name = point.scenario.platform;
    auto it = platforms_.find(name);
    if (it != platforms_.end()) return it->second;
    try {
      return platforms_[name] = load_platform(name);
    } catch (const InvalidParameter& error) {
      throw InputError(point.where.at("platform") + ": key 'platform': " + error.what());
    }
  }

  size_t group_of(const Scenario& scenario, const PlatformSpec& platform) {
    // The vendor is a simulation option of the group's engine (what `vendor` runs).
    const std::string key =
        scenario.platform + '\x1f' + scenario.engine + '\x1f' + std::to_string(scenario.ranks) +
        '\x1f' + std::to_string(platform.ranks_per_node) + '\x1f' + scenario.simulation.vendor;
    auto [it, added] = group_index_.emplace(key, plan_.groups.size());
    if (added) {
      plan_.groups.push_back(
          {scenario.platform, platform, scenario.engine, scenario.ranks, scenario.simulation});
    }
    return it->second;
  }

  SweepPlan& plan_;
  SkipReport skips_;
  std::map<std::string, PlatformSpec> platforms_;
  std::map<std::string, size_t> group_index_;
  std::set<std::string> keys_;
  std::map<std::string, std::string> invalid_everywhere_;  // entry:choices -> the first error
  std::set<std::string> valid_somewhere_;
};

}  // namespace

std::string SimGroup::describe() const {
  return platform_name + " " + engine + " P=" + std::to_string(ranks) + " (" +
         std::to_string(platform.ranks_per_node) + " per node, vendor " + options.vendor + ")";
}

std::string SweepRow::describe() const {
  std::string out;
  for (size_t i = 0; i < identity.size(); ++i) {
    if (identity_columns()[i] == "algorithm" || identity[i].empty()) continue;
    out += (out.empty() ? "" : " ") + identity_columns()[i] + "=" + identity[i];
  }
  return out;
}

SweepPlan plan_sweep(const std::string& origin, std::vector<GridPoint> points, bool report) {
  SweepPlan plan;
  plan.origin = origin;
  plan.points = std::move(points);
  Planner planner(plan);
  for (size_t i = 0; i < plan.points.size(); ++i)
    planner.add_point(i);
  planner.finish(report);
  return plan;
}

MemoryEstimate estimate_sweep_memory(const SweepPlan& plan, const std::vector<size_t>& rows,
                                     int workers, std::string& engine) {
  // A worker runs one point's configurations on one workload after another: estimate per point.
  std::map<size_t, std::vector<const SweepRow*>> by_point;
  for (size_t row : rows)
    by_point[plan.rows[row].point].push_back(&plan.rows[row]);
  MemoryEstimate largest;
  for (const auto& [point, members] : by_point) {
    const SimGroup& group = plan.groups[members.front()->group];
    std::vector<Planned> planned;
    for (const SweepRow* row : members)
      planned.push_back(row->planned);
    const auto workload = make_workload(members.front()->workload, group.ranks);
    const MemoryEstimate estimate = estimate_memory(
        group.engine, {group.platform, group.ranks, group.options, *workload, planned});
    if (estimate.bytes > largest.bytes || engine.empty()) {
      largest = estimate;
      engine = group.engine;
    }
  }
  return {largest.bytes * workers,
          std::to_string(workers) + " workers x (" + largest.what + "); fewer --jobs need less"};
}

}  // namespace a2a::sim
