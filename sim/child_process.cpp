#include "sim/child_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "algorithms/errors.hpp"

namespace a2a::sim {

bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string exit_text(int status) {
  if (WIFSIGNALED(status)) {
    return "the simulation process ended by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  return "the simulation process exited with code " + std::to_string(WEXITSTATUS(status)) +
         " without an answer";
}

namespace {

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, static_cast<size_t>(n));
  }
}

// The child's answer: "ok\n" and the result, or "error\n" and the message.
[[noreturn]] void answer(int fd, const std::function<std::string()>& work) {
  std::string reply;
  try {
    reply = "ok\n" + work();
  } catch (const std::exception& error) {
    reply = std::string("error\n") + error.what();
  }
  _exit(write_all(fd, reply) ? 0 : 1);
}

}  // namespace

std::string run_in_child(const std::function<std::string()>& work) {
  int pipe_fds[2];
  // Close-on-exec: a child that execs (none does today) must not keep the pipe open.
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw Error(std::string("cannot open a pipe: ") + strerror(errno));
  const pid_t parent = getpid();
  std::fflush(nullptr);  // what is buffered now would be written twice
  const pid_t child = fork();
  if (child < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    throw Error(std::string("cannot fork a simulation process: ") + strerror(errno));
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before prctl took effect
    close(pipe_fds[0]);
    answer(pipe_fds[1], work);
  }
  close(pipe_fds[1]);
  const std::string reply = read_all(pipe_fds[0]);
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const bool exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (exited && reply.rfind("ok\n", 0) == 0) return reply.substr(3);
  if (reply.rfind("error\n", 0) == 0) throw Error(reply.substr(6));
  throw Error(exit_text(status));
}

}  // namespace a2a::sim
