#!/usr/bin/env bash
# `a2a model --csv`: the columns, one row per configuration of the scenario, terms that add up to
# the model's time, the ratio model / simulated; with --no-sim the simulation columns stay empty.
# Usage: model_csv.sh A2A SCENARIO CONFIGURATIONS
set -euo pipefail
a2a=$1
scenario=$2
configurations=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

header="algorithm,model_seconds,simulated_seconds,model_over_simulated,latency_seconds,bandwidth_seconds,contention_seconds,nic_seconds,overhead_seconds,copy_seconds,launch_seconds,rounds,steps"

# check FILE WITH_SIM: header, row count, terms summing to the model, ratio or empty columns.
check() {
  local file=$1 with_sim=$2
  [ "$(head -1 "$file")" = "$header" ] || fail "header of $file: $(head -1 "$file")"
  local rows=$(($(wc -l < "$file") - 1))
  [ "$rows" -eq "$configurations" ] || fail "$rows rows in $file, expected $configurations"
  # Labels hold no commas, so the fields split plainly.
  awk -F, -v with_sim="$with_sim" 'NR > 1 {
    model = $2; terms = $5 + $6 + $7 + $8 + $9 + $10 + $11
    if (model <= 0) { print "FAIL: model time " model " in row " NR; exit 1 }
    if ((terms - model) ^ 2 > (1e-6 * model) ^ 2) { print "FAIL: terms " terms " != model " model; exit 1 }
    if ($12 < 1 || $13 < $12) { print "FAIL: rounds " $12 " steps " $13 " in row " NR; exit 1 }
    if (with_sim) {
      if ($3 <= 0) { print "FAIL: no simulated time in row " NR; exit 1 }
      ratio = model / $3
      if ((ratio - $4) ^ 2 > (1e-6 * ratio) ^ 2) { print "FAIL: ratio " $4 " != " ratio; exit 1 }
    } else if ($3 != "" || $4 != "") { print "FAIL: --no-sim row " NR " has simulation columns"; exit 1 }
  }' "$file" || exit 1
}

"$a2a" model "$scenario" --csv "$out/with_sim.csv" > "$out/table.txt"
check "$out/with_sim.csv" 1
"$a2a" model "$scenario" --no-sim --csv "$out/model_only.csv" > /dev/null
check "$out/model_only.csv" 0
# The models do not depend on whether the simulation ran.
diff <(cut -d, -f1,2,5- "$out/with_sim.csv") <(cut -d, -f1,2,5- "$out/model_only.csv") \
  || fail "model columns differ with and without --no-sim"
grep -q "model/sim" "$out/table.txt" || fail "the printed table has no model/sim column"
# The machine terms the closed forms read are printed when the platform sets any (fugaku: a NIC
# time), and not for a platform that sets none (theta).
terms=$("$a2a" model "$scenario" --no-sim --set platform=fugaku | grep "^# machine terms:") ||
  fail "no machine terms line on fugaku"
[ "$terms" = "# machine terms: nic=2.12 us engines=6 pipelined=true match=0 s inject=none" ] ||
  fail "machine terms on fugaku: $terms"
# Engines chosen by rank are named on it (by peer node, the default, is not).
grep -v "^nic_engines:\|^nic_engine_choice:" "$(dirname "$0")/../../platforms/presets/fugaku.yaml" \
  > "$out/by_rank.yaml"
printf 'nic_engines: 6\nnic_engine_choice: rank\n' >> "$out/by_rank.yaml"
terms=$("$a2a" model "$scenario" --no-sim --set "platform=$out/by_rank.yaml" |
  grep "^# machine terms:") || fail "no machine terms line on engines by rank"
[[ "$terms" == *" engines=6 engine_choice=rank pipelined="* ]] ||
  fail "machine terms with engines by rank: $terms"
if "$a2a" model "$scenario" --no-sim --set platform=theta | grep -q "^# machine terms:"; then
  fail "machine terms printed for theta, which sets none"
fi
echo "ok: $configurations configurations, columns and sums checked"
