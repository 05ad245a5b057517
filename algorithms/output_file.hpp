// Output files of every a2a tool (a2a run/model/viz/sweep/tune/calibrate, a2a-mpi): one place
// that checks an output path before the work starts and writes it when the work is done.
//
// A regular file (or a new one) is written to FILE.partial and renamed into place, so an
// interrupted run never leaves a file that looks complete; a symlink is followed and its target
// replaced, never the link. Anything else — `-` (standard output), a character device such as
// /dev/null, a FIFO, /dev/stdout — is written through: renaming over it would destroy it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace a2a {

// Where an output option's text goes.
struct OutputTarget {
  std::string path;      // the file written: symlinks resolved; "-" for standard output
  bool through = false;  // written directly, not through FILE.partial and a rename
};

// Resolves `path` and checks that it can be written, before any work: a directory that exists and
// is writable for a regular file, a writable special file for the others. Throws InputError
// "OPTION PATH: cannot write: REASON" (the OS reason where there is one); an empty path is refused.
OutputTarget check_output(const std::string& option, const std::string& path);

// check_output for every (option, path) whose path was given (non-empty), and refuses two options
// naming the same file (after resolving links), which would silently keep only one of the texts.
// Character devices (/dev/null) may be named twice. An option given with an empty path is
// refused by the command line (cli/output_option.hpp, add_output_option).
void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Writes `text` to `path` as its OutputTarget says. Throws Error("cannot write PATH: REASON").
void write_output(const std::string& path, const std::string& text);

}  // namespace a2a
