// Output options of every a2a tool's command line (a2a run/model/viz/sweep/tune/calibrate,
// a2a-mpi verify/bench/sweep): declared the same way everywhere, checked by algorithms/output_file.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace a2a::cli {

// An option naming a file to write (`-` for standard output). A value given but empty
// (`--csv ''`) is refused here: the commands read an empty path as "not asked for", so it would
// otherwise silently write nothing.
inline CLI::Option* add_output_option(CLI::App& app, const std::string& names, std::string& path,
                                      const std::string& description) {
  const CLI::Validator not_empty(
      [](std::string& value) {
        return value.empty() ? std::string("empty path (use - for standard output)")
                             : std::string();
      },
      "FILE");
  return app.add_option(names, path, description + " (- for standard output)")->check(not_empty);
}

}  // namespace a2a::cli
