#include "sim/report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "sim/batching_error.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::sim {

std::string format_seconds(double seconds) {
  char text[32];
  if (seconds < 1e-3) {
    std::snprintf(text, sizeof text, "%.2f us", seconds * 1e6);
  } else if (seconds < 1) {
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.3f s", seconds);
  }
  return text;
}

namespace {

std::vector<size_t> ranked_order(const std::vector<SimResult>& results) {
  std::vector<size_t> order(results.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return results[a].predicted < results[b].predicted; });
  return order;
}

std::string phases_text(const SimResult& r) {
  std::string out;
  for (const auto& [label, seconds] : r.phase_mean) {
    if (seconds <= 0) continue;
    out += (out.empty() ? "" : " ") + label + "=" + format_seconds(seconds);
  }
  return out;
}

std::vector<std::string> pick(const std::vector<std::string>& row,
                              const std::vector<size_t>& kept) {
  std::vector<std::string> out;
  for (size_t column : kept)
    out.push_back(row[column]);
  return out;
}

// The printed width of a table of these columns: each as wide as its widest cell, 2 spaces apart.
size_t table_width(const std::vector<std::string>& headers,
                   const std::vector<std::vector<std::string>>& rows,
                   const std::vector<size_t>& kept) {
  size_t total = 0;
  for (size_t column : kept) {
    size_t widest = headers[column].size();
    for (const auto& row : rows)
      widest = std::max(widest, row[column].size());
    total += widest + 2;
  }
  return total >= 2 ? total - 2 : 0;
}

// The columns of the ranked table (indices into its headers) that fit `width`, dropping the least
// telling first; the rank, configuration, prediction, ratio and check are never dropped.
std::vector<size_t> columns_that_fit(const std::vector<std::string>& headers,
                                     const std::vector<std::vector<std::string>>& rows,
                                     size_t width) {
  // Header indices, least telling first: phases, sim wall, wait, bytes/rank, rank spread,
  // msgs/rank, rounds, working memory, peak temp.
  const size_t drop_order[] = {10, 13, 11, 7, 4, 6, 5, 9, 8};
  std::vector<size_t> kept;
  for (size_t i = 0; i < headers.size(); ++i)
    kept.push_back(i);
  for (size_t column : drop_order) {
    if (table_width(headers, rows, kept) <= width) break;
    kept.erase(std::find(kept.begin(), kept.end(), column));
  }
  return kept;
}

std::vector<double> predictions(const std::vector<SimResult>& results) {
  std::vector<double> predicted;
  for (const SimResult& r : results)
    predicted.push_back(r.predicted);
  return predicted;
}

// The configurations of the run closer to the fastest than the batched re-solving can err, by
// index into `results`; empty when exact or when none is that close.
std::vector<size_t> too_close_to_rank(const ScenarioSummary& summary,
                                      const std::vector<SimResult>& results) {
  return within_bound_of_fastest(predictions(results),
                                 batching_error_bound(summary.engine, summary.tolerance));
}

// Under the table: which leading rows the batching error could reorder, and how to rank them.
void print_close_calls(std::ostream& out, const ScenarioSummary& summary,
                       const std::vector<SimResult>& results) {
  const size_t close = too_close_to_rank(summary, results).size();
  if (close == 0) return;
  char text[400];
  std::snprintf(
      text, sizeof text,
      "# rows 1-%zu are within %.1f %% of the fastest: closer than the scale engine's "
      "batching error at\n# simulation.tolerance %g (docs/simulation.md, \"How close is "
      "too close\"). To rank them, rerun\n# them with --set simulation.tolerance=0.01, or "
      "0 (exact) up to P = 32,768.\n",
      close, 100 * batching_error_bound(summary.engine, summary.tolerance), summary.tolerance);
  out << text;
}

nlohmann::ordered_json stats_json(const RunStats& s) {
  return {{"rounds", s.rounds},         {"messages", s.messages},
          {"bytes_sent", s.bytes_sent}, {"meta_messages", s.meta_messages},
          {"meta_bytes", s.meta_bytes}, {"copy_bytes", s.copy_bytes},
          {"temp_peak", s.temp_peak}};
}

}  // namespace

void print_ranked(std::ostream& out, const ScenarioSummary& summary,
                  const std::vector<SimResult>& results, int width) {
  out << "# a2a run: " << summary.scenario << "\n# platform " << summary.platform
      << ", P=" << summary.ranks << " (" << summary.ranks_per_node << " per node), engine "
      << summary.engine << ", vendor = " << summary.vendor << "\n# workload " << summary.workload
      << "\n";
  const std::vector<std::string> headers = {
      "#",         "algorithm",  "predicted", "vs best", "rank spread",          "rounds",
      "msgs/rank", "bytes/rank", "peak temp", "working", "time by phase (mean)", "wait",
      "check",     "sim wall"};
  std::vector<std::vector<std::string>> rows;
  const auto order = ranked_order(results);
  const double best = results.empty() ? 0 : results[order.front()].predicted;
  for (size_t i : order) {
    const SimResult& r = results[i];
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", best > 0 ? r.predicted / best : 1.0);
    const std::string label =
        r.label == "vendor" ? vendor_label(summary.vendor, summary.ranks, summary.ranks_per_node)
                            : r.label;
    rows.push_back({std::to_string(rows.size() + 1), label, format_seconds(r.predicted), ratio,
                    format_seconds(r.fastest) + ".." + format_seconds(r.predicted),
                    std::to_string(r.max_per_rank.rounds), std::to_string(r.max_per_rank.messages),
                    human_bytes(r.max_per_rank.bytes_sent), human_bytes(r.max_per_rank.temp_peak),
                    r.working_bytes ? human_bytes(*r.working_bytes) : "-", phases_text(r),
                    format_seconds(r.wait_mean), r.check, format_seconds(r.wall_seconds)});
  }
  std::vector<size_t> kept(headers.size());
  for (size_t i = 0; i < kept.size(); ++i)
    kept[i] = i;
  if (width > 0) kept = columns_that_fit(headers, rows, static_cast<size_t>(width));
  TextTable table(pick(headers, kept));
  for (const auto& row : rows)
    table.add(pick(row, kept));
  table.print(out);
  if (kept.size() < headers.size())
    out << "(" << headers.size() - kept.size() << " columns left out to fit " << width
        << " characters: --wide shows them)\n";
  print_close_calls(out, summary, results);
}

void write_json(const std::string& path, const ScenarioSummary& summary,
                const std::vector<RowCells>& rows, const std::vector<SimResult>& results) {
  nlohmann::ordered_json doc;
  doc["scenario"] = summary.scenario;
  doc["platform"] = summary.platform;
  doc["workload"] = summary.workload;
  doc["ranks"] = summary.ranks;
  doc["ranks_per_node"] = summary.ranks_per_node;
  doc["engine"] = summary.engine;
  doc["vendor"] = summary.vendor;
  // The relative error the batched re-solving may add to each prediction (0: exact), and the
  // configurations it could reorder: those within it of the fastest.
  doc["batching_error_bound"] = batching_error_bound(summary.engine, summary.tolerance);
  doc["too_close_to_rank"] = nlohmann::ordered_json::array();
  for (size_t i : too_close_to_rank(summary, results))
    doc["too_close_to_rank"].push_back(results[i].label);
  doc["results"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < rows.size() && i < results.size(); ++i) {
    const SimResult& r = results[i];
    nlohmann::ordered_json item = row_json(rows[i]);
    item["label"] = r.label;
    item["phase_seconds_mean"] = r.phase_mean;
    item["max_per_rank"] = stats_json(r.max_per_rank);
    item["total"] = stats_json(r.total);
    doc["results"].push_back(std::move(item));
  }
  write_output(path, doc.dump(2) + "\n");
}

void write_csv(const std::string& path, const std::vector<RowCells>& rows) {
  write_output(path, rows_csv(rows));
}

void write_trace(const std::string& path, const std::vector<SimResult>& results) {
  nlohmann::json events = nlohmann::json::array();
  for (size_t c = 0; c < results.size(); ++c) {
    const SimResult& r = results[c];
    const int pid = static_cast<int>(c) + 1;
    events.push_back(
        {{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", r.label}}}});
    for (size_t rank = 0; rank < r.spans.size(); ++rank) {
      const int tid = static_cast<int>(rank);
      events.push_back({{"ph", "M"},
                        {"name", "thread_name"},
                        {"pid", pid},
                        {"tid", tid},
                        {"args", {{"name", "rank " + std::to_string(rank)}}}});
      double origin = r.spans[rank].empty() ? 0 : r.spans[rank].front().start;
      for (const Span& span : r.spans[rank])
        origin = std::min(origin, span.start);
      for (const Span& span : r.spans[rank]) {
        events.push_back({{"ph", "X"},
                          {"name", span.label},
                          {"pid", pid},
                          {"tid", tid},
                          {"ts", (span.start - origin) * 1e6},
                          {"dur", (span.end - span.start) * 1e6}});
      }
    }
  }
  write_output(path,
               nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n");
}

}  // namespace a2a::sim
