// Worker processes of `a2a sweep`; see sweep_workers.hpp.
//
// Protocol, one line per message: the parent sends "ROW\n"; the worker answers
// "ok ROW\tCELL\tCELL...\n"; or "fail ROW\tMESSAGE\n" and goes on; or "fail-exit ROW\tMESSAGE\n"
// and ends (a scale engine that threw may hold blocked ranks; SimGrid rows run in a child process
// each, see run_isolated, so their worker goes on); or "group-fail ROW\tMESSAGE\n" and ends when
// the platform cannot be built. End of input ends a worker.
#include "sim/sweep/sweep_workers.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>

#include "algorithms/errors.hpp"
#include "sim/child_process.hpp"
#include "sim/result_schema.hpp"

namespace a2a::sim {

namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_signal(int signal) {
  g_signal = signal;
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Text that fits in one protocol field: no tabs or line breaks.
std::string one_field(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

pid_t g_sweep = 0;  // the sweep's own process, for the test faults below

// Test-only (tests/sweep): A2A_SWEEP_TEST_FAULT=KIND:CONFIG, when a worker reaches a row of that
// configuration: fail (it fails like a simulation error), kill (SIGKILL to the worker), kill-sweep
// or interrupt-sweep (SIGKILL or SIGINT to the sweep itself, as a user or a scheduler would).
void inject_test_fault(const SweepRow& row) {
  const char* fault = std::getenv("A2A_SWEEP_TEST_FAULT");
  if (fault == nullptr) return;
  const std::string& config = row.identity.back();
  const std::string text = fault;
  if (text == "fail:" + config) throw Error("test fault (A2A_SWEEP_TEST_FAULT=" + text + ")");
  if (text == "kill:" + config) raise(SIGKILL);
  if (text == "kill-sweep:" + config) kill(g_sweep, SIGKILL);
  if (text == "interrupt-sweep:" + config) kill(g_sweep, SIGINT);
}

// The worker side: runs rows of one group until its input ends.
class WorkerProcess {
 public:
  WorkerProcess(const SweepPlan& plan, size_t group, int in, int out)
      : plan_(plan), group_(plan.groups[group]), in_(in), out_(out) {}

  [[noreturn]] void serve() {
    FILE* input = fdopen(in_, "r");
    char* line = nullptr;
    size_t capacity = 0;
    while (input && getline(&line, &capacity, input) > 0) {
      const size_t row = std::strtoul(line, nullptr, 10);
      if (!run(row)) _exit(1);
    }
    _exit(0);
  }

 private:
  // Simulates one row and answers; false when this process cannot go on.
  bool run(size_t row) {
    if (!simulation_) {
      try {
        simulation_ = make_simulation(group_.engine, group_.platform, group_.ranks, group_.options);
      } catch (const std::exception& error) {
        write_all(out_,
                  "group-fail " + std::to_string(row) + "\t" + one_field(error.what()) + "\n");
        return false;
      }
    }
    if (group_.engine == "simgrid") return run_isolated(row);
    return simulate_and_answer(row, "fail-exit ");
  }

  // SimGrid's clock only moves forward, its results depend (slightly) on what the process
  // simulated before, and a run that threw leaves it unusable: each row runs in a child forked
  // from the freshly built platform, exactly as `a2a run` of that configuration alone would.
  bool run_isolated(size_t row) {
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      _exit(simulate_and_answer(row, "fail ") ? 0 : 1);
    }
    int status = 0;
    if (child < 0) {
      write_all(out_, "fail-exit " + std::to_string(row) + "\tcannot fork a simulation process\n");
      return false;
    }
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    const bool answered = WIFEXITED(status) && WEXITSTATUS(status) <= 1;
    return answered ||
           write_all(out_, "fail " + std::to_string(row) + "\t" + exit_text(status) + "\n");
  }

  // True when the row was simulated and its answer sent; a failure is answered with `failure`.
  bool simulate_and_answer(size_t row, const char* failure) {
    const std::string index = std::to_string(row);
    const SweepRow& item = plan_.rows[row];
    try {
      if (!workload_ || workload_spec_ != item.workload) {
        workload_.reset();  // its run-sum caches go before the next one fills its own
        workload_ = make_workload(item.workload, group_.ranks);
        workload_spec_ = item.workload;
      }
      const std::unique_ptr<Workload>& workload = workload_;
      inject_test_fault(item);
      const SimResult result =
          simulation_->run(item.planned.config, *workload, item.planned.layout);
      std::string reply = "ok " + index;
      for (const std::string& cell : measure_cells(result))
        reply += "\t" + one_field(cell);
      return write_all(out_, reply + "\n");
    } catch (const std::exception& error) {
      write_all(out_, failure + index + "\t" + one_field(error.what()) + "\n");
      return false;
    }
  }

  const SweepPlan& plan_;
  const SimGroup& group_;
  int in_, out_;
  std::unique_ptr<Simulation> simulation_;
  // One workload at a time: a random one's run-sum caches fill up to Workload::cache_bytes
  // (1.3 GiB at P = 131,072), and estimate_sweep_memory counts one per worker.
  std::string workload_spec_;
  std::unique_ptr<Workload> workload_;
};

// The parent's view of one worker.
struct Worker {
  pid_t pid = -1;
  int to_worker = -1;
  int from_worker = -1;
  size_t group = 0;
  std::optional<size_t> row;  // the row it is simulating
  std::string received;       // a partial line
};

class Pool {
 public:
  Pool(const SweepPlan& plan, const std::vector<size_t>& rows, int jobs, const WorkerEvents& events)
      : plan_(plan), jobs_(jobs), events_(events), pending_(plan.groups.size()) {
    for (size_t row : rows)
      pending_[plan.rows[row].group].push_back(row);
  }

  int run() {
    while (!g_signal) {
      start_workers();
      if (workers_.empty()) break;
      wait_for_answers();
      events_.tick();
    }
    stop_all();
    return g_signal;
  }

 private:
  // Fills free slots with workers for the groups with rows left, the least-served group first.
  void start_workers() {
    while (static_cast<int>(workers_.size()) < jobs_) {
      std::optional<size_t> best;
      for (size_t g = 0; g < pending_.size(); ++g) {
        if (pending_[g].empty()) continue;
        if (!best || serving(g) < serving(*best) ||
            (serving(g) == serving(*best) && pending_[g].size() > pending_[*best].size())) {
          best = g;
        }
      }
      if (!best) return;
      spawn(*best);
      feed(workers_.back());
    }
  }

  int serving(size_t group) const {
    int count = 0;
    for (const Worker& worker : workers_)
      count += worker.group == group;
    return count;
  }

  void spawn(size_t group) {
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) throw Error("cannot create a pipe to a worker process");
    std::fflush(nullptr);  // or the child would inherit (and might repeat) buffered output
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw Error("cannot start a worker process");
    if (pid == 0) {
      for (int signal : kStopSignals)
        std::signal(signal, SIG_DFL);
      std::signal(SIGPIPE, SIG_DFL);
      prctl(PR_SET_PDEATHSIG, SIGTERM);  // a killed parent takes its workers along
      if (getppid() != parent) _exit(1);
      for (const Worker& other : workers_) {
        close(other.to_worker);
        close(other.from_worker);
      }
      close(down[1]);
      close(up[0]);
      WorkerProcess(plan_, group, down[0], up[1]).serve();
    }
    close(down[0]);
    close(up[1]);
    Worker worker;
    worker.pid = pid;
    worker.to_worker = down[1];
    worker.from_worker = up[0];
    worker.group = group;
    workers_.push_back(std::move(worker));
  }

  // Gives the worker its group's next row, or ends its input when none is left.
  void feed(Worker& worker) {
    std::deque<size_t>& queue = pending_[worker.group];
    if (queue.empty() || g_signal) {
      if (worker.to_worker >= 0) close(worker.to_worker);
      worker.to_worker = -1;
      return;
    }
    const size_t row = queue.front();
    queue.pop_front();
    if (!write_all(worker.to_worker, std::to_string(row) + "\n")) {
      queue.push_front(row);  // the worker is gone; another one will take the row
      close(worker.to_worker);
      worker.to_worker = -1;
      return;
    }
    worker.row = row;
  }

  void wait_for_answers() {
    std::vector<pollfd> fds;
    for (const Worker& worker : workers_)
      fds.push_back({worker.from_worker, POLLIN, 0});
    if (poll(fds.data(), fds.size(), 1000) < 0) return;  // EINTR: a signal, checked by run()
    std::vector<size_t> ended;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      if (!receive(workers_[i])) ended.push_back(i);
    }
    for (auto it = ended.rbegin(); it != ended.rend(); ++it)
      reap(*it);
  }

  // Reads what the worker sent; false at its end of output.
  bool receive(Worker& worker) {
    char buffer[65536];
    const ssize_t n = read(worker.from_worker, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) return true;
    if (n <= 0) return false;
    worker.received.append(buffer, static_cast<size_t>(n));
    for (auto end = worker.received.find('\n'); end != std::string::npos;
         end = worker.received.find('\n')) {
      const std::string line = worker.received.substr(0, end);
      worker.received.erase(0, end + 1);
      answer(worker, line);
    }
    return true;
  }

  void answer(Worker& worker, const std::string& line) {
    const auto space = line.find(' ');
    const auto tab = line.find('\t');
    if (space == std::string::npos) return;  // not an answer (cannot happen)
    const std::string kind = line.substr(0, space);
    const size_t row = std::strtoul(line.c_str() + space + 1, nullptr, 10);
    if (row >= plan_.rows.size()) return;
    const std::string rest = tab == std::string::npos ? "" : line.substr(tab + 1);
    worker.row.reset();
    if (kind == "ok") {
      std::vector<std::string> cells;
      size_t from = 0;
      for (auto at = rest.find('\t');; at = rest.find('\t', from)) {
        cells.push_back(rest.substr(from, at - from));
        if (at == std::string::npos) break;
        from = at + 1;
      }
      events_.finished(row, cells);
      feed(worker);
      return;
    }
    std::vector<size_t> rows = {row};
    if (kind == "group-fail") {
      rows.insert(rows.end(), pending_[worker.group].begin(), pending_[worker.group].end());
      pending_[worker.group].clear();
    }
    events_.failed(rows, rest);
    if (kind == "fail") feed(worker);  // a SimGrid worker goes on: the run failed in its child
  }

  void reap(size_t index) {
    Worker& worker = workers_[index];
    if (worker.to_worker >= 0) close(worker.to_worker);
    close(worker.from_worker);
    int status = 0;
    while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (worker.row && !g_signal) events_.failed({*worker.row}, exit_text(status));
    workers_.erase(workers_.begin() + static_cast<std::ptrdiff_t>(index));
  }

  void stop_all() {
    for (const Worker& worker : workers_)
      kill(worker.pid, SIGTERM);
    while (!workers_.empty())
      reap(workers_.size() - 1);
  }

  const SweepPlan& plan_;
  int jobs_;
  const WorkerEvents& events_;
  std::vector<std::deque<size_t>> pending_;  // per group, rows no worker has taken yet
  std::vector<Worker> workers_;
};

}  // namespace

int run_workers(const SweepPlan& plan, const std::vector<size_t>& rows, int jobs,
                const WorkerEvents& events) {
  g_signal = 0;
  g_sweep = getpid();
  struct sigaction action {};
  action.sa_handler = on_signal;  // no SA_RESTART: poll() returns at once
  std::map<int, struct sigaction> previous;
  for (int signal : kStopSignals)
    sigaction(signal, &action, &previous[signal]);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous[SIGPIPE]);
  int interrupted = 0;
  try {
    interrupted = Pool(plan, rows, jobs, events).run();
  } catch (...) {
    for (const auto& [signal, old] : previous)
      sigaction(signal, &old, nullptr);
    throw;
  }
  for (const auto& [signal, old] : previous)
    sigaction(signal, &old, nullptr);
  return interrupted;
}

}  // namespace a2a::sim
