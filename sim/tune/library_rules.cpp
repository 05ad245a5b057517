#include "sim/tune/library_rules.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "algorithms/errors.hpp"
#include "sim/report.hpp"
#include "sim/tune/table_writer.hpp"

namespace a2a::tune {

namespace {

// What a catalog configuration is called in the library, or nothing when the library lacks it.
struct LibraryChoice {
  std::string name;            // Open MPI: "1" / "2"; MPICH: the algorithm's csel name
  std::string label;           // for comments and notes
  std::int64_t throttle = -1;  // MPICH: MPIR_CVAR_ALLTOALL_THROTTLE this needs; -1: none
};
using Mapping = std::function<std::optional<LibraryChoice>(const SweepRow&)>;

std::optional<std::int64_t> parameter(const std::string& config, const std::string& key) {
  const size_t at = config.find(key + "=");
  if (at == std::string::npos) return std::nullopt;
  std::int64_t value = 0;
  const char* begin = config.data() + at + key.size() + 1;
  const auto [end, error] = std::from_chars(begin, config.data() + config.size(), value);
  if (error != std::errc() || end == begin) return std::nullopt;
  return value;
}

std::optional<LibraryChoice> open_mpi_choice(const SweepRow& row) {
  if (row.algorithm == "ompi_linear") return LibraryChoice{"1", "basic_linear", -1};
  if (row.algorithm == "ompi_pairwise") return LibraryChoice{"2", "pairwise", -1};
  return std::nullopt;
}

const char* const kScattered = "MPIR_Alltoallv_intra_scattered";

std::optional<LibraryChoice> mpich_choice(const SweepRow& row) {
  if (row.algorithm == "spread_out") return LibraryChoice{kScattered, "scattered, throttle 0", 0};
  if (row.algorithm == "scattered") {
    const std::int64_t batch = parameter(row.config, "batch").value_or(32);
    return LibraryChoice{kScattered, "scattered, throttle " + std::to_string(batch), batch};
  }
  return std::nullopt;
}

// Geometric mean of each candidate configuration's predicted times over the given cells, using
// only the cells where every candidate that appears in them passed (so that all compete on the
// same S values). `cells` lists the cell indices to pool.
struct Score {
  std::string config;
  const SweepRow* sample = nullptr;  // one of its rows (for the mapping)
  double geomean = 0;
  int cells = 0;
};

std::vector<Score> scores(const TuningMap& map, const std::vector<size_t>& cells,
                          const Mapping& mapping) {
  std::map<std::string, std::map<size_t, const SweepRow*>> by_config;
  for (size_t c : cells) {
    for (const SweepRow* row : map.cells[c].measured) {
      if (row->passed() && mapping(*row)) by_config[row->config][c] = row;
    }
  }
  std::vector<size_t> common;
  for (size_t c : cells) {
    bool all = !by_config.empty();
    for (const auto& [config, rows] : by_config)
      all = all && rows.count(c);
    if (all) common.push_back(c);
  }
  std::vector<Score> out;
  if (common.empty()) return out;
  for (const auto& [config, rows] : by_config) {
    double log_sum = 0;
    for (size_t c : common)
      log_sum += std::log(std::max(rows.at(c)->predicted_seconds, 1e-30));
    out.push_back({config, rows.begin()->second, std::exp(log_sum / common.size()),
                   static_cast<int>(common.size())});
  }
  std::sort(out.begin(), out.end(), [](const Score& a, const Score& b) {
    return a.geomean != b.geomean ? a.geomean < b.geomean : a.config < b.config;
  });
  return out;
}

std::string scores_text(const std::vector<Score>& ranked, const Mapping& mapping) {
  std::string text;
  for (const Score& score : ranked) {
    text += (text.empty() ? "" : ", ") + score.config + " (" + mapping(*score.sample)->label +
            ") " + sim::format_seconds(score.geomean);
  }
  return text + " (geometric mean over " + std::to_string(ranked.front().cells) + " S)";
}

// Per measured P: the winning candidate; P values where no candidate could be compared are left
// out (their notes say why).
struct RankChoice {
  int ranks = 0;
  Score winner;
  LibraryChoice choice;
};

std::vector<RankChoice> choose_per_rank(const TuningMap& map, const Mapping& mapping,
                                        std::vector<std::string>& notes) {
  std::vector<RankChoice> out;
  for (size_t p = 0; p < map.ranks.size(); ++p) {
    std::vector<size_t> cells;
    for (size_t s = 0; s < map.blocks.size(); ++s)
      cells.push_back(p * map.blocks.size() + s);
    const std::vector<Score> ranked = scores(map, cells, mapping);
    const std::string at = "P=" + std::to_string(map.ranks[p]) + ": ";
    if (ranked.empty()) {
      notes.push_back(at + "no S where every candidate passed; no rule from this P");
      continue;
    }
    out.push_back({map.ranks[p], ranked.front(), *mapping(*ranked.front().sample)});
    notes.push_back(at + scores_text(ranked, mapping));
  }
  return out;
}

// Communicator-size ranges: [lower bound, chosen] runs with neighbouring equal choices merged;
// bounds at the geometric midpoints between measured P.
struct SizeRule {
  std::int64_t low = 1, high = 0;  // high 0: open
  const RankChoice* choice = nullptr;
};

std::vector<SizeRule> size_rules(const std::vector<RankChoice>& chosen) {
  std::vector<std::int64_t> ranks;
  for (const RankChoice& c : chosen)
    ranks.push_back(c.ranks);
  const std::vector<std::int64_t> bounds = geometric_bounds(ranks);
  std::vector<SizeRule> rules;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const std::int64_t high = i < bounds.size() ? bounds[i] : 0;
    if (!rules.empty() && rules.back().choice->choice.name == chosen[i].choice.name) {
      rules.back().high = high;
      continue;
    }
    rules.push_back({i == 0 ? 1 : bounds[i - 1] + 1, high, &chosen[i]});
  }
  return rules;
}

std::string padded(const std::string& value, const std::string& comment) {
  return value + std::string(value.size() < 12 ? 12 - value.size() : 1, ' ') + "# " + comment +
         "\n";
}

const char* const kSizeOnly = "selects its MPI_Alltoallv algorithm by communicator size only";

}  // namespace

LibraryRules open_mpi_rules(const TuningMap& map, const std::string& sources) {
  LibraryRules rules;
  rules.notes.push_back(std::string("Open MPI ") + kSizeOnly +
                        " (the message size is not used): per P, the candidate with the lowest "
                        "geometric mean of predicted times over S.");
  const std::vector<RankChoice> chosen = choose_per_rank(map, open_mpi_choice, rules.notes);
  if (chosen.empty()) {
    throw InputError(
        "--ompi: no P where the sweep compares Open MPI's alltoallv algorithms "
        "(ompi_linear = basic_linear, ompi_pairwise = pairwise); add them to the "
        "sweep's algorithms");
  }
  const std::vector<SizeRule> ranges = size_rules(chosen);
  std::string& text = rules.text;
  text +=
      "# Open MPI coll/tuned dynamic rules for MPI_Alltoallv, written by `a2a tune` "
      "(docs/tuning.md)\n# sweep: " +
      sources + "\n# " + map.key.describe() + "\n# Open MPI " + kSizeOnly +
      ": the message size is not used.\n# So each communicator size gets the candidate "
      "with the lowest geometric mean of predicted\n# times over the sweep's S values "
      "(each S weighs the same), whatever the application's sizes.\n# Candidates, the "
      "catalog's versions of Open MPI's algorithms: ompi_linear = 1 basic_linear,\n# "
      "ompi_pairwise = 2 pairwise. Classic format as Open MPI 4.1 reads it (no version line: "
      "4.1\n# ignores a file that starts with rule-file-version-2). Use:\n#   mpirun --mca "
      "coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE ...\n";
  text += padded("1", "number of collectives");
  text += padded("4", "collective id 4: alltoallv");
  text += padded(std::to_string(ranges.size()), "number of communicator-size rules");
  for (const SizeRule& range : ranges) {
    text += padded(std::to_string(range.low),
                   "communicator size " + std::to_string(range.low) +
                       (range.high ? " to " + std::to_string(range.high) : " and up") + ": " +
                       range.choice->choice.label);
    text += padded("1", "number of message-size rules");
    text += padded("0 " + range.choice->choice.name + " 0 0",
                   "from 0 bytes: algorithm, fan in/out, segment size");
  }
  return rules;
}

LibraryRules mpich_rules(const TuningMap& map) {
  LibraryRules rules;
  rules.notes.push_back(std::string("MPICH ") + kSizeOnly +
                        " and whether it is in place (avg_msg_size is not defined for alltoallv "
                        "in MPICH's selector).");
  const std::vector<RankChoice> chosen = choose_per_rank(map, mpich_choice, rules.notes);
  if (chosen.empty()) {
    throw InputError(
        "--mpich: no P where the sweep measured MPICH's alltoallv algorithm "
        "(scattered:batch=B, spread_out = throttle 0); add them to the sweep's "
        "algorithms");
  }
  std::vector<size_t> every_cell(map.cells.size());
  for (size_t c = 0; c < every_cell.size(); ++c)
    every_cell[c] = c;
  std::vector<Score> global = scores(map, every_cell, mpich_choice);
  const Score& throttle_score = global.empty() ? chosen.front().winner : global.front();
  const std::int64_t throttle = mpich_choice(*throttle_score.sample)->throttle;
  rules.notes.push_back(
      "MPIR_CVAR_ALLTOALL_THROTTLE is one global value (every communicator, alltoall and "
      "alltoallv alike): " +
      std::to_string(throttle) + " (" + throttle_score.config +
      (global.empty() ? ", best at the smallest P"
                      : ", the lowest geometric mean over every cell") +
      "); set MPIR_CVAR_ALLTOALL_THROTTLE=" + std::to_string(throttle) + " with this file.");
  rules.notes.push_back(
      "MPICH reads MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE instead of its built-in tree: merge "
      "this collective=alltoallv subtree into a complete selection file (docs/tuning.md).");
  // In-place calls keep MPICH's only in-place algorithm; the rest follow the sizes' choices.
  nlohmann::ordered_json by_size = nlohmann::ordered_json::object();
  const std::vector<SizeRule> ranges = size_rules(chosen);
  auto algorithm = [](const SizeRule& range) {
    return nlohmann::ordered_json{
        {"algorithm=" + range.choice->choice.name, nlohmann::ordered_json::object()}};
  };
  if (ranges.size() == 1) by_size = algorithm(ranges.front());
  for (size_t i = 0; ranges.size() > 1 && i < ranges.size(); ++i) {
    const std::string key =
        ranges[i].high ? "comm_size<=" + std::to_string(ranges[i].high) : "comm_size=any";
    by_size[key] = algorithm(ranges[i]);
  }
  nlohmann::ordered_json doc = {{"collective=alltoallv",
                                 {{"comm_type=intra",
                                   {{"is_sendbuf_inplace=yes",
                                     {{"algorithm=MPIR_Alltoallv_intra_pairwise_sendrecv_replace",
                                       nlohmann::ordered_json::object()}}},
                                    {"is_sendbuf_inplace=no", by_size}}},
                                  {"comm_type=inter",
                                   {{"algorithm=MPIR_Alltoallv_inter_pairwise_exchange",
                                     nlohmann::ordered_json::object()}}}}}};
  rules.text = doc.dump(2) + "\n";
  return rules;
}

}  // namespace a2a::tune
