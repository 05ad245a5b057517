#include "sim/tune/tune_command.hpp"

#include <cstdio>
#include <iostream>

#include "algorithms/errors.hpp"
#include "algorithms/output_file.hpp"
#include "algorithms/text_table.hpp"
#include "sim/batching_error.hpp"
#include "sim/report.hpp"
#include "sim/tune/library_rules.hpp"
#include "sim/tune/map_svg.hpp"
#include "sim/tune/table_writer.hpp"

namespace a2a::tune {

namespace {

std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& item : items)
    out += (out.empty() ? "" : separator) + item;
  return out;
}

std::string block_heading(const std::optional<std::int64_t>& block) {
  return block ? "S=" + std::to_string(*block) : "all S";
}

// The best leads the runner-up by less than the batching error could move them
// (sim/batching_error.hpp): the sweep does not rank them.
bool too_close(const Cell& cell, double bound) {
  return cell.best && cell.runner_up &&
         a2a::sim::within_bound(cell.best->predicted_seconds, cell.runner_up->predicted_seconds,
                                bound);
}

std::string cell_text(const Cell& cell, double bound) {
  if (cell.missing()) {
    if (cell.failed == 0) return "-";
    return "- (" + std::to_string(cell.failed) +
           (cell.failed == 1 ? " failed check)" : " failed checks)");
  }
  const auto speedup = cell.speedup();
  return short_config(cell.best->config) + (speedup ? "  " + speedup_text(*speedup) : "") +
         (too_close(cell, bound) ? " *" : "");
}

// Under a map of scale-engine rows: which cells the batching error could change, and how to
// settle them.
void print_close_calls(std::ostream& out, const TuningMap& map, double bound) {
  int close = 0;
  for (const Cell& cell : map.cells)
    close += too_close(cell, bound) ? 1 : 0;
  if (close == 0) return;
  char text[400];
  std::snprintf(text, sizeof text,
                "%d cell(s) marked *: the runner-up is within %.1f %% of the best, closer than "
                "the scale engine's\nbatching error at the rows' simulation.tolerance %g: "
                "rerun those points with simulation.tolerance\n0.01 to rank them "
                "(docs/simulation.md, \"How close is too close\")\n",
                close, 100 * bound, map.key.tolerance.value_or(0));
  out << text;
}

void print_map(std::ostream& out, const TuningMap& map) {
  const double bound =
      a2a::sim::batching_error_bound(map.key.engine, map.key.tolerance.value_or(0));
  out << "# " << map.key.describe()
      << "\n# per (P, S): the configuration with the lowest predicted time and its speed-up over "
         "vendor (vendor's time / its; '-': no usable row)\n";
  std::vector<std::string> headers = {"P \\ S"};
  for (const auto& block : map.blocks)
    headers.push_back(block_heading(block));
  TextTable table(headers);
  for (size_t p = 0; p < map.ranks.size(); ++p) {
    std::vector<std::string> row = {std::to_string(map.ranks[p])};
    for (size_t s = 0; s < map.blocks.size(); ++s)
      row.push_back(cell_text(map.at(p, s), bound));
    table.add(row);
  }
  table.print(out);
  int failed = 0, missing = 0, without_vendor = 0;
  const SweepRow* first_failed = nullptr;
  for (const Cell& cell : map.cells) {
    failed += cell.failed;
    missing += cell.missing() ? 1 : 0;
    without_vendor += !cell.missing() && !cell.vendor_seconds ? 1 : 0;
    for (const SweepRow* row : cell.measured) {
      if (!row->passed() && !first_failed) first_failed = row;
    }
  }
  if (failed) {
    out << "ignored " << failed
        << " row(s) whose payload check failed (first: " << first_failed->where << ": "
        << first_failed->config << ": " << first_failed->check << ")\n";
  }
  if (missing) out << missing << " cell(s) without a usable measurement: shown as '-'\n";
  if (without_vendor) out << without_vendor << " cell(s) without a vendor row: no speed-up\n";
  print_close_calls(out, map, bound);
}

// The texts of every requested output, made before anything is printed or written: an output
// that cannot be made (Open MPI rules from a sweep without Open MPI's algorithms) is one error
// line, not a map followed by an error and none of the other files.
struct Output {
  std::string path, what, text;
  std::string notes;  // printed before the file is written
};

std::vector<Output> make_outputs(const TuneOptions& options, const TuningMap& map,
                                 const std::string& sources) {
  std::vector<Output> outputs;
  if (!options.table.empty()) {
    outputs.push_back({options.table, "a2a tuning table", tuning_table_text(map, sources), ""});
  }
  if (!options.ompi.empty()) {
    LibraryRules rules = open_mpi_rules(map, sources);
    outputs.push_back({options.ompi, "Open MPI coll/tuned rules", std::move(rules.text),
                       "Open MPI (" + options.ompi + "):\n  " + joined(rules.notes, "\n  ")});
  }
  if (!options.mpich.empty()) {
    LibraryRules rules = mpich_rules(map);
    outputs.push_back({options.mpich, "MPICH selection JSON", std::move(rules.text),
                       "MPICH (" + options.mpich + "):\n  " + joined(rules.notes, "\n  ")});
  }
  if (!options.svg.empty()) outputs.push_back({options.svg, "heatmap", heatmap_svg(map), ""});
  if (!options.area_svg.empty()) {
    outputs.push_back({options.area_svg, "decision regions", regions_svg(map), ""});
  }
  return outputs;
}

bool wants_files(const TuneOptions& options) {
  return !(options.table.empty() && options.ompi.empty() && options.mpich.empty() &&
           options.svg.empty() && options.area_svg.empty());
}

}  // namespace

int run_tune(const TuneOptions& options) {
  check_outputs({{"--table", options.table},
                 {"--ompi", options.ompi},
                 {"--mpich", options.mpich},
                 {"--svg", options.svg},
                 {"--area-svg", options.area_svg}});
  std::vector<SweepRow> rows;
  for (const std::string& path : options.sweeps) {
    std::vector<SweepRow> more = read_sweep(path);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  const std::vector<TuningMap> maps = build_maps(rows, options.filter);
  const std::string sources = joined(options.sweeps, ", ");
  if (wants_files(options) && maps.size() > 1) {
    std::vector<std::string> groups;
    for (const TuningMap& map : maps)
      groups.push_back(map.key.describe());
    throw InputError(sources + " holds " + std::to_string(maps.size()) + " groups (" +
                     joined(groups, "; ") +
                     "); an output file describes one: choose it with --platform, --engine, "
                     "--ranks-per-node, --workload, --vendor or --tolerance");
  }
  const std::vector<Output> outputs =
      wants_files(options) ? make_outputs(options, maps.front(), sources) : std::vector<Output>{};
  std::cout << "# a2a tune: " << sources << "\n";
  for (const TuningMap& map : maps) {
    std::cout << "\n";
    print_map(std::cout, map);
  }
  if (outputs.empty()) return 0;
  for (const Output& output : outputs) {
    if (!output.notes.empty()) std::cout << "\n" << output.notes << "\n";
  }
  std::cout << "\n";
  for (const Output& output : outputs) {
    write_output(output.path, output.text);
    std::cout << "wrote " << output.path << " (" << output.what << ")\n";
  }
  return 0;
}

}  // namespace a2a::tune
