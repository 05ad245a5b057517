#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang++ (AddressSanitizer and UndefinedBehaviorSanitizer
# on) in build-fuzz and runs each for a bounded number of inputs, starting from its seed corpus
# (fuzz/corpus/<target>/) and the inputs of earlier findings (fuzz/regressions/<target>/).
# Inputs libFuzzer generates go to a scratch directory, never into the repository. A finding stops
# the run (non-zero exit) and its input is kept in build-fuzz/findings/ (docs/reliability.md says
# how to turn it into a regression test). Usage: scripts/test-fuzz.sh [RUNS per target, 50000]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50000}
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DA2A_FUZZ=ON \
  -DBUILD_TESTING=OFF >/dev/null
targets=(scenario platform matrix)
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}"
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1
mkdir -p build-fuzz/findings
for target in "${targets[@]}"; do
  scratch=$(mktemp -d)
  seeds=(fuzz/corpus/$target)
  [ -d fuzz/regressions/$target ] && seeds+=(fuzz/regressions/$target)
  echo "fuzz: $target, $runs inputs"
  if ! build-fuzz/fuzz/fuzz_$target -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$target-" \
      "$scratch" "${seeds[@]}" >"build-fuzz/findings/$target.log" 2>&1; then
    tail -40 "build-fuzz/findings/$target.log"
    echo "fuzz: FAIL: $target found a problem; input in build-fuzz/findings/$target-*"
    rm -rf "$scratch"
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "build-fuzz/findings/$target.log" | tr '\n' ' '
  echo
  rm -rf "$scratch"
done
echo "fuzz: ${#targets[@]} passed, 0 failed ($runs inputs each, no finding)"
