// `a2a sweep`: options, resume, shards and merging, progress; see sweep_command.hpp.
#include "sim/sweep/sweep_command.hpp"

#include <fcntl.h>
#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "algorithms/errors.hpp"
#include "algorithms/output_file.hpp"
#include "algorithms/text_table.hpp"
#include "cli/output_option.hpp"
#include "sim/progress_lines.hpp"
#include "sim/resource_guard.hpp"
#include "sim/sweep/shard_paths.hpp"
#include "sim/sweep/sweep_plan.hpp"
#include "sim/sweep/sweep_rows.hpp"
#include "sim/sweep/sweep_workers.hpp"

namespace a2a::sim {

namespace {

struct Shard {
  int index = 0;
  int count = 1;
};

int cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::optional<long long> whole_number(const std::string& text) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

int parse_jobs(const std::string& text) {
  if (text.empty()) return cores();
  const auto jobs = whole_number(text);
  if (!jobs || *jobs < 1 || *jobs > 4096) {
    throw InputError("--jobs '" + text + "': expected a number of processes from 1 to 4096");
  }
  return static_cast<int>(*jobs);
}

std::optional<Shard> parse_shard(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const auto slash = text.find('/');
  const auto index = whole_number(text.substr(0, slash));
  const auto count =
      slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *count > 1000000 || *index < 0 || *index >= *count) {
    throw InputError("--shard '" + text + "': expected K/N with 0 <= K < N (e.g. 0/4)");
  }
  return Shard{static_cast<int>(*index), static_cast<int>(*count)};
}

void check_out(const std::string& out) {
  if (out.empty()) throw InputError("--out FILE is needed (FILE.csv or FILE.json)");
  const std::string extension = std::filesystem::path(out).extension().string();
  if (extension != ".csv" && extension != ".json") {
    throw InputError("--out " + out + ": expected a .csv or .json file name");
  }
  // The sweep reads its output back to resume and appends rows as they finish: a file only.
  if (check_output("--out", out).through) {
    throw InputError("--out " + out + ": cannot write: not a regular file (a sweep reads its " +
                     "output back to resume)");
  }
}

// One a2a sweep at a time writes a file: two appending to the same output lost one's rows. An
// advisory lock (flock) on FILE.lock, held while the sweep runs and removed when it ends; a second
// sweep on the same file is refused as one line. (A sweep that opened the lock file just before it
// was removed, and locks it just after, would go unnoticed: a window of a few instructions.)
class WriterLock {
 public:
  explicit WriterLock(const std::string& path) : lock_path_(path + ".lock") {
    fd_ = open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw InputError("--out " + path + ": cannot create the lock file " + lock_path_ + ": " +
                       std::strerror(errno));
    }
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      close(fd_);
      throw InputError("--out " + path + ": another a2a sweep is writing it (" + lock_path_ +
                       " is locked); wait for it to end");
    }
  }
  ~WriterLock() {
    unlink(lock_path_.c_str());  // while still locked: no other sweep holds it
    close(fd_);
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

// Where a JSON output's finished rows wait until the JSON is rewritten (CSV outputs are their own).
std::string journal_of(const std::string& out) {
  return is_json_path(out) ? out + ".journal.csv" : out;
}

// Every row already written for `out`: the output, its journal and every shard file.
RowSet rows_written(const std::string& out) {
  RowSet rows;
  rows.add_all(read_rows(out));
  if (journal_of(out) != out) rows.add_all(read_rows(journal_of(out)));
  for (const std::string& file : sweep_files::shard_files(out))
    rows.add_all(read_rows(file));
  return rows;
}

std::vector<std::string> grid_order(const SweepPlan& plan) {
  std::vector<std::string> keys;
  for (const SweepRow& row : plan.rows)
    keys.push_back(row_key(row.identity));
  return keys;
}

std::string clock_text(double seconds) {
  const long long s = static_cast<long long>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", s / 60, s % 60);
  }
  return text;
}

// Progress on stderr: "[#######-------------] 12/40 rows, 1 failed, 0:35 elapsed, ETA 1:12"
// rewritten in place on a terminal; otherwise "a2a sweep: 12/40 rows, ..." as plain lines, at most
// one every few seconds (ProgressLines, as `a2a run` does).
class ProgressBar {
 public:
  ProgressBar(size_t total, bool terminal) : total_(total), terminal_(terminal) {}

  void draw(size_t done, size_t failed) {
    const size_t finished = done + failed;
    if (!terminal_) {
      lines_.report("a2a sweep: " + status(finished, failed));
      return;
    }
    constexpr int kWidth = 24;
    const int filled = total_ ? static_cast<int>(kWidth * finished / total_) : kWidth;
    std::fprintf(stderr, "\r\033[K[%s%s] %s", std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(kWidth - filled), '-').c_str(),
                 status(finished, failed).c_str());
    std::fflush(stderr);
  }

  void clear() {
    if (terminal_) std::fprintf(stderr, "\r\033[K");
  }

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  // "12/40 rows, 1 failed, 0:35 elapsed, ETA 1:12"
  std::string status(size_t finished, size_t failed) const {
    const double seconds = elapsed();
    std::string eta = "ETA ?";
    if (finished > 0) {
      eta = "ETA " + clock_text(seconds / static_cast<double>(finished) *
                                static_cast<double>(total_ - finished));
    }
    return std::to_string(finished) + "/" + std::to_string(total_) + " rows" +
           (failed ? ", " + std::to_string(failed) + " failed" : "") + ", " + clock_text(seconds) +
           " elapsed, " + eta;
  }

  size_t total_;
  bool terminal_;
  ProgressLines lines_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// One run's simulations: rows go to the journal as they finish, failures to stderr.
class SweepRun {
 public:
  SweepRun(const SweepPlan& plan, RowSet& written, RowJournal& journal, size_t total)
      : plan_(plan), written_(written), journal_(journal), bar_(total, isatty(STDERR_FILENO)) {}

  int run(const std::vector<size_t>& todo, int workers) {
    WorkerEvents events;
    events.finished = [this](size_t row, const std::vector<std::string>& result) {
      finished(row, result);
    };
    events.failed = [this](const std::vector<size_t>& rows, const std::string& error) {
      failed(rows, error);
    };
    events.tick = [this] { bar_.draw(done_, failed_); };
    const int signal = run_workers(plan_, todo, workers, events);
    bar_.clear();
    return signal;
  }

  size_t done() const { return done_; }
  size_t failed() const { return failed_; }
  size_t check_failures() const { return check_failures_; }
  double seconds() const { return bar_.elapsed(); }

 private:
  void finished(size_t row, const std::vector<std::string>& result) {
    RowCells cells = plan_.rows[row].identity;
    if (result.size() != result_columns().size() - cells.size()) {
      failed({row}, "malformed answer from the simulation process");
      return;
    }
    cells.insert(cells.end(), result.begin(), result.end());
    journal_.append(cells);
    const std::string& check = cells.back();
    if (check != "-" && check != "pass") {
      bar_.clear();
      std::fprintf(stderr, "a2a sweep: payload check failed: %s: %s\n",
                   plan_.rows[row].describe().c_str(), check.c_str());
      ++check_failures_;
    }
    spdlog::info("{}: predicted {} s", plan_.rows[row].describe(),
                 cells[identity_columns().size()]);
    written_.add(std::move(cells));
    ++done_;
  }

  void failed(const std::vector<size_t>& rows, const std::string& error) {
    bar_.clear();
    const SweepRow& first = plan_.rows[rows.front()];
    if (rows.size() == 1) {
      std::fprintf(stderr, "a2a sweep: failed: %s: %s\n", first.describe().c_str(), error.c_str());
    } else {
      std::fprintf(stderr, "a2a sweep: failed: %zu configurations on %s: %s\n", rows.size(),
                   plan_.groups[first.group].describe().c_str(), error.c_str());
    }
    failed_ += rows.size();
  }

  const SweepPlan& plan_;
  RowSet& written_;
  RowJournal& journal_;
  ProgressBar bar_;
  size_t done_ = 0, failed_ = 0, check_failures_ = 0;
};

int merge(const SweepOptions& options) {
  const std::vector<std::string> shards = sweep_files::shard_files(options.out);
  RowSet rows;
  rows.add_all(read_rows(options.out));
  const size_t before = rows.size();
  if (journal_of(options.out) != options.out) rows.add_all(read_rows(journal_of(options.out)));
  for (const std::string& file : shards)
    rows.add_all(read_rows(file));
  std::vector<std::string> order;
  std::string missing;
  if (!options.sweep.empty()) {
    const SweepPlan plan = plan_sweep(options.sweep, load_sweep(options.sweep), false);
    order = grid_order(plan);
    const size_t absent = static_cast<size_t>(std::count_if(
        order.begin(), order.end(), [&](const std::string& key) { return !rows.has(key); }));
    missing = "; " + std::to_string(absent) + " of the grid's " + std::to_string(order.size()) +
              " rows missing";
  }
  write_rows(options.out, options.sweep, rows.ordered(order));
  for (const std::string& file : shards)
    std::filesystem::remove(file);
  if (journal_of(options.out) != options.out) std::filesystem::remove(journal_of(options.out));
  std::fprintf(stderr, "a2a sweep: merged %zu shard files into %s: %zu rows (%zu new)%s\n",
               shards.size(), options.out.c_str(), rows.size(), rows.size() - before,
               missing.c_str());
  return 0;
}

void print_rows(const SweepPlan& plan, const std::vector<size_t>& rows) {
  std::cout << TextTable::csv_line(identity_columns());
  for (size_t row : rows)
    std::cout << TextTable::csv_line(plan.rows[row].identity);
}

// Scale-engine workers share the cores instead of each taking all of them (results do not depend
// on the thread count).
void share_cores(SweepPlan& plan, int workers) {
  for (SimGroup& group : plan.groups) {
    if (group.options.threads == 0) group.options.threads = std::max(1, cores() / workers);
  }
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options) {
  CLI::App* sweep = app.add_subcommand(
      "sweep", "simulate a grid of configurations in parallel, resumable (docs/sweeps.md)");
  sweep->add_option("sweep", options.sweep, "sweep YAML file (a scenario whose keys may be lists)");
  cli::add_output_option(
      *sweep, "--out", options.out,
      "results FILE.csv or FILE.json; rows already in it are not computed again");
  sweep->add_option("-j,--jobs", options.jobs, "worker processes (default: one per core)");
  sweep->add_option("--shard", options.shard,
                    "K/N: compute only share K of N of the grid, into FILE.shard-K-of-N.csv");
  sweep->add_flag("--merge", options.merge,
                  "merge the shard files of --out into it (the sweep file, if given, orders rows)");
  sweep->add_flag("--dry-run", options.dry_run, "print the rows that would be computed, as CSV");
  sweep->add_option("--max-memory", options.max_memory,
                    "refuse sweeps whose workers are estimated to need more together (e.g. 8G)");
  sweep->add_flag("-v,--verbose", options.verbose, "log every finished row to stderr");
  return sweep;
}

namespace {

// The rows this run computes: its share of the grid, less what is already written.
struct Work {
  std::vector<size_t> todo;  // indices into plan.rows
  size_t share = 0;          // rows of the grid in this run's share
};

Work select_rows(const SweepPlan& plan, const RowSet& written, const std::optional<Shard>& shard) {
  Work work;
  for (size_t i = 0; i < plan.rows.size(); ++i) {
    if (shard && static_cast<int>(i % static_cast<size_t>(shard->count)) != shard->index) continue;
    ++work.share;
    if (!written.has(row_key(plan.rows[i].identity))) work.todo.push_back(i);
  }
  return work;
}

void report_start(const SweepPlan& plan, const Work& work, const SweepOptions& options,
                  int workers) {
  std::string share, on;
  if (!options.shard.empty()) {
    share = ", " + std::to_string(work.share) + " in shard " + options.shard;
  }
  if (!work.todo.empty()) {
    on = " on " + std::to_string(workers) + (workers > 1 ? " workers" : " worker");
  }
  std::fprintf(stderr, "a2a sweep: %zu rows in the grid%s, %zu already written, %zu to compute%s\n",
               plan.rows.size(), share.c_str(), work.share - work.todo.size(), work.todo.size(),
               on.c_str());
}

void report_end(const SweepRun& run, const std::string& file, size_t rows, int signal) {
  std::string interrupted;
  if (signal) {
    interrupted =
        "; interrupted (" + std::string(strsignal(signal)) + "): rerun to compute the rest";
  }
  std::fprintf(stderr, "a2a sweep: computed %zu rows, %zu failed, in %.1f s; %s holds %zu rows%s\n",
               run.done(), run.failed(), run.seconds(), file.c_str(), rows, interrupted.c_str());
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  if (options.verbose) spdlog::set_level(spdlog::level::info);
  check_out(options.out);
  if (options.merge) {
    if (!options.shard.empty()) throw InputError("--merge and --shard: choose one");
    const WriterLock lock(options.out);
    return merge(options);
  }
  if (options.sweep.empty()) throw InputError("a sweep file is needed (a2a sweep SWEEP.yaml ...)");
  const int jobs = parse_jobs(options.jobs);
  const std::optional<Shard> shard = parse_shard(options.shard);
  SweepPlan plan =
      plan_sweep(options.sweep, load_sweep(options.sweep), !shard || shard->index == 0);
  // Shards of one sweep run at once, each writing its own file: each locks that file.
  std::optional<WriterLock> lock;
  if (!options.dry_run) {
    lock.emplace(shard ? sweep_files::shard_file(options.out, shard->index, shard->count)
                       : options.out);
  }
  RowSet written = rows_written(options.out);
  const Work work = select_rows(plan, written, shard);
  const int workers = static_cast<int>(std::clamp<size_t>(work.todo.size(), 1, jobs));
  report_start(plan, work, options, workers);
  if (options.dry_run) {
    print_rows(plan, work.todo);
    return 0;
  }
  share_cores(plan, workers);
  if (!work.todo.empty()) {
    std::string engine;
    check_memory(estimate_sweep_memory(plan, work.todo, workers, engine),
                 memory_limit(options.max_memory), engine);
  }
  // Finished rows go to the shard file, or the CSV output itself, or the JSON output's journal.
  const std::string journal_path =
      shard ? sweep_files::shard_file(options.out, shard->index, shard->count)
            : journal_of(options.out);
  RowJournal journal(journal_path, journal_path == options.out ? written.ordered(grid_order(plan))
                                                               : read_rows(journal_path));
  SweepRun run(plan, written, journal, work.todo.size());
  const int signal = work.todo.empty() ? 0 : run.run(work.todo, workers);
  journal.close();
  if (shard) {
    report_end(run, journal_path, journal.rows(), signal);
  } else {
    write_rows(options.out, options.sweep, written.ordered(grid_order(plan)));
    if (journal_path != options.out) std::filesystem::remove(journal_path);
    report_end(run, options.out, written.size(), signal);
  }
  if (signal) return 128 + signal;
  return run.failed() || run.check_failures() ? 1 : 0;
}

}  // namespace a2a::sim
