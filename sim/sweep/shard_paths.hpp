// Where the rows of a sweep's shards wait to be merged: next to the output, one CSV file per shard
// ("results.csv.shard-3-of-8.csv"). Header-only and standard C++ only: `a2a sweep` (which writes
// and merges them) and `a2a-mpi sweep` (which gathers them, and cannot link SimGrid) share it.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace a2a::sweep_files {

inline std::string shard_file(const std::string& out, int index, int count) {
  return out + ".shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".csv";
}

// Where `a2a-mpi sweep` puts the rows it gathered from rank `rank` before merging them.
inline std::string gathered_file(const std::string& out, int rank) {
  return out + ".shard-gathered-" + std::to_string(rank) + ".csv";
}

// Every shard file of `out` that exists, sorted by name.
inline std::vector<std::string> shard_files(const std::string& out) {
  namespace fs = std::filesystem;
  const fs::path path(out);
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const std::string prefix = path.filename().string() + ".shard-";
  std::vector<std::string> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".csv")) {
      found.push_back((path.has_parent_path() ? directory / name : fs::path(name)).string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace a2a::sweep_files
