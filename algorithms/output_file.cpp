// Output files: checked before the work, written atomically or through; see output_file.hpp.
#include "algorithms/output_file.hpp"

#include <sys/stat.h>  // stat(): whether a path is this process's standard output
#include <unistd.h>    // access(): whether this process may write, as the OS will decide

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "algorithms/errors.hpp"

namespace a2a {

namespace fs = std::filesystem;

namespace {

// The standard streams and descriptors (/dev/stdout is a link to /proc/self/fd/1, which may be a
// pipe, a terminal or a file the shell opened) and /proc: write to them, never replace them. Other
// paths under /dev (devices, but also /dev/shm, a plain tmpfs directory) go by their file type.
bool names_a_stream(const fs::path& path) {
  const std::string text = path.lexically_normal().string();
  for (const char* prefix : {"/dev/std", "/dev/fd/", "/proc/"})
    if (text.rfind(prefix, 0) == 0) return true;
  return false;
}

// Follows symbolic links so that the link's target is written and the link kept.
fs::path follow_links(fs::path path) {
  constexpr int kMaxLinks = 40;  // as the kernel's ELOOP limit
  for (int hop = 0; hop < kMaxLinks; ++hop) {
    std::error_code error;
    if (names_a_stream(path) || !fs::is_symlink(fs::symlink_status(path, error))) return path;
    const fs::path target = fs::read_symlink(path, error);
    if (error) return path;
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  throw InputError(path.string() + ": too many levels of symbolic links");
}

OutputTarget resolve(const std::string& path) {
  if (path == "-") return {"-", true};
  const fs::path target = follow_links(path);
  std::error_code error;
  const fs::file_status status = fs::status(target, error);
  const bool special =
      fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status);
  return {target.string(), special || names_a_stream(target)};
}

std::string os_reason() {
  return std::strerror(errno);
}

bool is_character_device(const OutputTarget& target) {
  std::error_code error;
  return target.path != "-" && fs::is_character_file(target.path, error);
}

bool same_file(const OutputTarget& a, const OutputTarget& b) {
  if (a.path == "-" || b.path == "-") return a.path == b.path;
  if (is_character_device(a) && is_character_device(b)) return false;  // /dev/null twice is fine
  std::error_code error;
  if (fs::equivalent(a.path, b.path, error)) return true;
  // Files not yet created: the same name once made absolute and normalised (two paths that
  // cannot be resolved are not thereby the same).
  const fs::path first = fs::weakly_canonical(fs::absolute(a.path), error);
  if (error) return false;
  const fs::path second = fs::weakly_canonical(fs::absolute(b.path), error);
  return !error && first == second;
}

// Writes and flushes `text`; returns the OS reason of a failure, empty on success.
std::string put(std::FILE* file, const std::string& text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file) != text.size() || std::fflush(file) != 0) {
    return errno ? os_reason() : "short write";
  }
  return {};
}

[[noreturn]] void cannot_write(const std::string& path, const std::string& reason) {
  throw Error("cannot write " + path + ": " + reason);
}

void write_to_stdout(const std::string& text) {
  std::cout.flush();  // the tables printed so far come first
  if (const std::string reason = put(stdout, text); !reason.empty()) {
    cannot_write("standard output", reason);
  }
}

// /dev/stdout, /dev/fd/1, or any other name of what standard output is: written through the
// stdout stream, after what was printed before (a second descriptor would write at its own offset
// and be overwritten by, or overwrite, the table).
bool is_standard_output(const std::string& path) {
  struct stat named {
  }, out{};
  return stat(path.c_str(), &named) == 0 && fstat(STDOUT_FILENO, &out) == 0 &&
         named.st_dev == out.st_dev && named.st_ino == out.st_ino;
}

// Appending: a file given by a /dev/fd or /proc path keeps what it held; a device or a FIFO
// ignores the mode.
void write_through(const std::string& shown, const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (!file) cannot_write(shown, os_reason());
  std::string reason = put(file, text);
  if (std::fclose(file) != 0 && reason.empty()) reason = os_reason();
  if (!reason.empty()) cannot_write(shown, reason);
}

// Through PATH.partial renamed into place; the replaced file's permissions are kept.
void write_atomically(const std::string& shown, const std::string& path, const std::string& text) {
  const std::string temporary = path + ".partial";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) cannot_write(shown, os_reason());
  std::string reason = put(file, text);
  if (std::fclose(file) != 0 && reason.empty()) reason = os_reason();
  std::error_code error;
  const fs::file_status before = fs::status(path, error);
  if (reason.empty() && fs::is_regular_file(before)) {
    fs::permissions(temporary, before.permissions(), error);
  }
  if (reason.empty() && std::rename(temporary.c_str(), path.c_str()) != 0) reason = os_reason();
  if (!reason.empty()) {
    std::remove(temporary.c_str());
    cannot_write(shown, reason);
  }
}

}  // namespace

OutputTarget check_output(const std::string& option, const std::string& path) {
  const auto refuse = [&](const std::string& reason) {
    throw InputError(option + " " + path + ": cannot write: " + reason);
  };
  if (path.empty()) throw InputError(option + ": empty path (use - for standard output)");
  const OutputTarget target = resolve(path);
  if (target.path == "-") return target;
  std::error_code error;
  const fs::file_status status = fs::status(target.path, error);
  if (fs::is_directory(status)) refuse("it is a directory");
  if (target.through) {
    if (!fs::exists(status)) refuse("no such file");
    if (access(target.path.c_str(), W_OK) != 0) refuse(os_reason());
    return target;
  }
  fs::path directory = fs::path(target.path).parent_path();
  if (directory.empty()) directory = ".";
  const fs::file_status directory_status = fs::status(directory, error);
  if (!fs::exists(directory_status)) refuse("directory " + directory.string() + " does not exist");
  if (!fs::is_directory(directory_status)) refuse(directory.string() + " is not a directory");
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    refuse("directory " + directory.string() + ": " + os_reason());
  }
  return target;
}

void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<std::pair<std::string, OutputTarget>> checked;
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    const OutputTarget target = check_output(option, path);
    for (const auto& [other, earlier] : checked) {
      if (same_file(earlier, target)) {
        throw InputError(option + " " + path + ": the same file as " + other +
                         "; each output needs its own file");
      }
    }
    checked.emplace_back(option, target);
  }
}

void write_output(const std::string& path, const std::string& text) {
  const OutputTarget target = resolve(path);
  if (target.path == "-" || (target.through && is_standard_output(target.path))) {
    write_to_stdout(text);
  } else if (target.through) {
    write_through(path, target.path, text);
  } else {
    write_atomically(path, target.path, text);
  }
}

}  // namespace a2a
