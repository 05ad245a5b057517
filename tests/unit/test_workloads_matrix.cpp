// The matrix workload (workloads/matrix.cpp): both file formats load with the exact counts, the
// unit and elem options, the uniform/balanced flags against the matrix, the P mismatch, and every
// class of file error with its "FILE:LINE:" message.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "algorithms/errors.hpp"
#include "workloads/workload.hpp"

namespace {

using a2a::make_workload;

// A file under /tmp holding `text`, removed when the test ends.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/a2a_matrix_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path_ = name;
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::vector<std::int64_t>> counts_of(const a2a::Workload& w) {
  std::vector<std::vector<std::int64_t>> m(w.ranks(), std::vector<std::int64_t>(w.ranks()));
  for (int s = 0; s < w.ranks(); ++s) {
    for (int d = 0; d < w.ranks(); ++d)
      m[s][d] = w.count(s, d);
  }
  return m;
}

// The InputError message of loading `text` as a P-rank matrix ("" when it loads).
std::string input_error(const std::string& text, int P, const std::string& more = "") {
  TempFile file(text);
  try {
    make_workload("matrix:file=" + file.path() + more, P);
  } catch (const a2a::InputError& e) {
    std::string what = e.what();
    // Replace the random file name so messages compare exactly.
    if (what.rfind(file.path(), 0) == 0) what = "FILE" + what.substr(file.path().size());
    return what;
  }
  return "";
}

std::string invalid_parameter(const std::string& spec, int P) {
  try {
    make_workload(spec, P);
  } catch (const a2a::InvalidParameter& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("workload matrix: CSV and the authors' text format give the exact counts") {
  const std::vector<std::vector<std::int64_t>> bytes = {
      {0, 8, 16, 24}, {800, 0, 7, 9}, {64, 64, 64, 64}, {1, 2, 3, 4096}};
  std::vector<std::vector<std::int64_t>> elements = bytes;
  for (auto& row : elements) {
    for (auto& c : row)
      c /= 8;  // unit=bytes: floored to whole FP64 elements
  }
  const TempFile csv(
      "# sender rows, receiver columns\n"
      "0,8,16,24\n"
      "800, 0 ,7,9\r\n"
      "\n"
      "64,64,64,64\n"
      "1,2,3,4096");  // no final newline
  const TempFile text(
      "0 8 16 24\n"
      "  800\t0 7   9  \n"
      "64 64 64 64\n"
      "1 2 3 4096\n"
      "\n");
  for (const TempFile* file : {&csv, &text}) {
    CAPTURE(file->path());
    auto w = make_workload("matrix:file=" + file->path(), 4);
    CHECK(w->ranks() == 4);
    CHECK(w->element_bytes() == 8);
    CHECK(w->spec() == "matrix:file=" + file->path() + ",unit=bytes,elem=8");
    CHECK(counts_of(*w) == elements);
    CHECK_FALSE(w->uniform());
    CHECK_FALSE(w->balanced());
    // The canonical spec names the same workload.
    CHECK(counts_of(*make_workload(w->spec(), 4)) == elements);

    auto as_elements = make_workload("matrix:file=" + file->path() + ",unit=elements,elem=4", 4);
    CHECK(as_elements->element_bytes() == 4);
    CHECK(as_elements->spec() == "matrix:file=" + file->path() + ",unit=elements,elem=4");
    CHECK(counts_of(*as_elements) == bytes);

    auto wide = make_workload("matrix:file=" + file->path() + ",elem=16", 4);
    CHECK(wide->count(1, 0) == 50);
    CHECK(wide->count(0, 1) == 0);
    CHECK(wide->count(3, 3) == 256);
  }
}

TEST_CASE("workload matrix: uniform() and balanced() are exact") {
  struct Case {
    std::string text;
    std::string spec_tail;
    bool uniform, balanced;
  };
  const std::vector<Case> cases = {
      {"5\n", "", true, true},          // P = 1: 0 elements, both
      {"8,8\n8,8\n", "", true, true},   // uniform
      {"8,15\n8,8\n", "", true, true},  // floored: all 1 element
      {"8,15\n8,8\n", ",unit=elements", false, false},
      {"0 16 8\n8 0 16\n16 8 0\n", "", false, true},  // a Latin square: balanced, not uniform
      {"0 16 8\n16 0 8\n8 8 0\n", "", false, false},  // rows 3, 3, 2 elements
      {"0 8\n8 16\n", "", false, false},              // row totals 1, 3
      {"8 8\n0 16\n", "", false, false},              // rows 2, 2 but columns 1, 3
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    CAPTURE(c.spec_tail);
    TempFile file(c.text);
    int P = 0;
    for (char ch : c.text)
      P += ch == '\n';
    auto w = make_workload("matrix:file=" + file.path() + c.spec_tail, P);
    CHECK(w->uniform() == c.uniform);
    CHECK(w->balanced() == c.balanced);
  }
}

TEST_CASE("workload matrix: the file's P must be the run's") {
  std::string twelve;
  for (int r = 0; r < 12; ++r) {
    for (int c = 0; c < 12; ++c)
      twelve += (c ? "," : "") + std::to_string(r * c);
    twelve += "\n";
  }
  TempFile file(twelve);
  CHECK(make_workload("matrix:file=" + file.path(), 12)->count(11, 11) == 121 / 8);
  CHECK(invalid_parameter("matrix:file=" + file.path(), 16) ==
        "workload matrix: " + file.path() + " has 12 ranks, the run has 16");
  CHECK(invalid_parameter("matrix:file=" + file.path(), 1) ==
        "workload matrix: " + file.path() + " has 12 ranks, the run has 1");
}

TEST_CASE("workload matrix: file errors name FILE:LINE") {
  // Unreadable: there is no line to name.
  CHECK_THROWS_WITH_AS(make_workload("matrix:file=/tmp/a2a_no_such_matrix.csv", 2),
                       "/tmp/a2a_no_such_matrix.csv: cannot open: No such file or directory",
                       a2a::InputError);
  // Wrong number of values on a later line (the first line gives P).
  CHECK(input_error("1,2,3\n4,5\n7,8,9\n", 3) == "FILE:2: 2 values, expected 3 (as on row 1)");
  CHECK(input_error("# header\n1 2 3\n4 5 6 7\n7 8 9\n", 3) ==
        "FILE:3: 4 values, expected 3 (as on row 1)");
  CHECK(input_error("1,2,3\n4,5,6,\n7,8,9\n", 3) == "FILE:2: 4 values, expected 3 (as on row 1)");
  // Too few or too many rows.
  CHECK(input_error("1 2 3\n4 5 6\n\n", 3) ==
        "FILE:3: 2 rows, expected 3 (a P x P matrix: one row per rank)");
  CHECK(input_error("1 2\n3 4\n5 6\n", 2) ==
        "FILE:3: row 3, but the matrix has 2 columns (a P x P matrix: one row per rank)");
  CHECK(input_error("", 2) == "FILE:1: no matrix rows (only comments and blank lines)");
  CHECK(input_error("# only a header\n\n", 2) ==
        "FILE:2: no matrix rows (only comments and blank lines)");
  // Not integers (including mixing the two formats).
  CHECK(input_error("1,2\n3,x4\n", 2) == "FILE:2: column 2: 'x4' is not an integer");
  CHECK(input_error("1,2\n3,4.5\n", 2) == "FILE:2: column 2: '4.5' is not an integer");
  CHECK(input_error("1,,2\n1,2,3\n1,2,3\n", 3) == "FILE:1: column 2: '' is not an integer");
  CHECK(input_error("1,2\n3 4\n", 2) == "FILE:2: 1 values, expected 2 (as on row 1)");
  CHECK(input_error("1 2\n3,4 5\n", 2) == "FILE:2: column 1: '3,4' is not an integer");
  CHECK(input_error("1 2\n3 99999999999999999999\n", 2) ==
        "FILE:2: column 2: 99999999999999999999 is out of range");
  // Negative counts.
  CHECK(input_error("1 2\n-3 4\n", 2) == "FILE:2: column 1: negative count -3");
  CHECK(input_error("0,0,0\n0,0,0\n0,0,-1\n", 3) == "FILE:3: column 3: negative count -1");
  // Above the largest block (1 TiB), in bytes or once elements are made bytes.
  CHECK(input_error("0 1099511627777\n0 0\n", 2) ==
        "FILE:1: column 2: 1099511627777 exceeds the largest block (1099511627776 bytes)");
  CHECK(input_error("0 1099511627776\n0 0\n", 2).empty());
  CHECK(input_error("0 137438953473\n0 0\n", 2, ",unit=elements") ==
        "FILE:1: column 2: 137438953473 exceeds the largest block (1099511627776 bytes)");
  // A directory opens but cannot be read.
  CHECK_THROWS_AS(make_workload("matrix:file=/tmp", 2), a2a::InputError);
}

TEST_CASE("workload matrix: option errors and the catalog entry") {
  CHECK(invalid_parameter("matrix", 4) == "workload matrix: option file=PATH is required");
  CHECK(invalid_parameter("matrix:elem=8", 4) == "workload matrix: option file=PATH is required");
  CHECK(invalid_parameter("matrix:file=/x,unit=kb", 4) ==
        "workload matrix: option unit=kb must be one of: bytes, elements");
  CHECK(invalid_parameter("matrix:file=/x,elem=0", 4) ==
        "workload matrix: option elem=0 must be >= 1");
  CHECK(invalid_parameter("matrix:file=/x,seed=1", 4) ==
        "workload matrix: unknown option 'seed' (options: file, unit, elem)");
  bool listed = false;
  for (const auto& info : a2a::workload_catalog()) {
    if (info.name != "matrix") continue;
    listed = true;
    CHECK(info.options == "file=PATH (required), unit=bytes|elements (bytes), elem=BYTES (8)");
    CHECK(info.source == "recordings; authors' matrix format of Fan et al., HPDC 2025");
    CHECK(info.description.find("modest P") != std::string::npos);
  }
  CHECK(listed);
}
