// `a2a-mpi sweep`: one `a2a sweep --shard` child per rank, rows gathered and merged on rank 0; see
// sweep_launcher.hpp.
#include "mpi/sweep_launcher.hpp"

#include <mpi.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "cli/output_option.hpp"
#include "sim/sweep/shard_paths.hpp"

extern char** environ;

namespace a2a::mpi {

namespace {

constexpr int kBadInput = 2;  // `a2a`'s exit code for bad input

std::string sibling_a2a() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("a2a") : (self.parent_path() / "a2a").string();
}

// Cores for this rank's workers: its CPU affinity, shared with the node's other ranks when it is
// not bound (mpirun --bind-to none).
int default_jobs() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_ranks = 1;
  MPI_Comm_size(node, &local_ranks);
  MPI_Comm_free(&node);
  cpu_set_t set;
  const int mine = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return mine >= online ? std::max(1, mine / local_ranks) : std::max(1, mine);
}

// Runs the program with `args` (args[0] is the program) and waits: its exit code, or 128 + the
// signal that ended it.
int run_program(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
    throw Error("cannot run " + args[0]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_if_exists(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  return text.str();
}

// Every rank's text, on rank 0 (empty elsewhere).
std::vector<std::string> gather_texts(const std::string& mine, int rank, int ranks) {
  if (mine.size() > static_cast<size_t>(INT_MAX)) throw Error("a shard file over 2 GiB");
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(ranks));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<size_t>(ranks), 0);
  long long total = 0;
  for (int r = 0; r < ranks; ++r) {
    offsets[static_cast<size_t>(r)] = static_cast<int>(total);
    total += lengths[static_cast<size_t>(r)];
  }
  if (rank == 0 && total > INT_MAX) throw Error("the gathered shard files exceed 2 GiB");
  std::string all(rank == 0 ? static_cast<size_t>(total) : 0, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  std::vector<std::string> texts;
  if (rank != 0) return texts;
  for (int r = 0; r < ranks; ++r) {
    texts.push_back(all.substr(static_cast<size_t>(offsets[static_cast<size_t>(r)]),
                               static_cast<size_t>(lengths[static_cast<size_t>(r)])));
  }
  return texts;
}

// Rank 0: stores every rank's rows next to FILE (so a failed merge loses nothing) and merges them.
int merge_on_first(const SweepLaunchOptions& options, const std::string& a2a,
                   const std::vector<std::string>& texts) {
  for (size_t r = 0; r < texts.size(); ++r) {
    if (texts[r].empty()) continue;
    write_output(sweep_files::gathered_file(options.out, static_cast<int>(r)), texts[r]);
  }
  return run_program({a2a, "sweep", options.sweep, "--out", options.out, "--merge"});
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepLaunchOptions& options) {
  CLI::App* sweep = app.add_subcommand(
      "sweep", "run `a2a sweep` spread over the MPI job, one shard per rank (docs/sweeps.md)");
  sweep->add_option("sweep", options.sweep, "sweep YAML file")->required();
  cli::add_output_option(*sweep, "--out", options.out, "results FILE.csv or FILE.json")->required();
  sweep->add_option("-j,--jobs", options.jobs,
                    "worker processes per rank (default: the rank's share of its node's cores)");
  sweep->add_option("--max-memory", options.max_memory, "memory bound of each rank's workers");
  sweep->add_option("--a2a", options.a2a, "the a2a program (default: the one next to a2a-mpi)");
  return sweep;
}

int run_sweep(const SweepLaunchOptions& options) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::string a2a = options.a2a.empty() ? sibling_a2a() : options.a2a;
  if (access(a2a.c_str(), X_OK) != 0) {
    throw InputError("--a2a " + a2a + ": not an executable (the a2a simulator, built next to " +
                     "a2a-mpi by default)");
  }
  const std::string jobs = options.jobs.empty() ? std::to_string(default_jobs()) : options.jobs;
  std::vector<std::string> args = {a2a,
                                   "sweep",
                                   options.sweep,
                                   "--out",
                                   options.out,
                                   "--shard",
                                   std::to_string(rank) + "/" + std::to_string(ranks),
                                   "--jobs",
                                   jobs};
  if (!options.max_memory.empty()) {
    args.insert(args.end(), {"--max-memory", options.max_memory});
  }
  const int code = run_program(args);
  int worst = code;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const std::string shard = sweep_files::shard_file(options.out, rank, ranks);
  const std::vector<std::string> texts = gather_texts(read_if_exists(shard), rank, ranks);
  // Bad input: every child said why, and computed nothing.
  int merged = kBadInput;
  if (worst != kBadInput && rank == 0) merged = merge_on_first(options, a2a, texts);
  MPI_Bcast(&merged, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (merged == 0) std::filesystem::remove(shard);  // still there when not on a shared disk
  return worst != 0 ? worst : merged;
}

}  // namespace a2a::mpi
