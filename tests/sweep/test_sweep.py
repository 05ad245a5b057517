#!/usr/bin/env python3
"""Tests of `a2a sweep` and `a2a-mpi sweep` (docs/sweeps.md): run one case by name.

Usage: test_sweep.py CASE --a2a PATH [--a2a-mpi PATH --mpirun ARGS...] --work DIR
Each case runs small sweeps (tests/sweep/*.yaml) in its own empty DIR and asserts on the outputs.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GRID = os.path.join(HERE, "grid.yaml")  # 18 rows, scale engine
GRID_ROWS = 18
SIMGRID = os.path.join(HERE, "grid_simgrid.yaml")  # 12 rows, SimGrid engine
COLUMNS = ("platform,engine,ranks,ranks_per_node,workload,block_bytes,vendor,tolerance,algorithm,"
           "config,"
           "predicted_seconds,fastest_rank_seconds,median_rank_seconds,rounds,messages_per_rank,"
           "bytes_per_rank,meta_messages_per_rank,temp_peak_bytes,working_bytes,wait_seconds_mean,"
           "copy_seconds_mean,intra_node_bytes,inter_node_bytes,simulator_wall_seconds,check"
           ).split(",")
IDENTITY = ["platform", "engine", "ranks", "ranks_per_node", "workload", "block_bytes", "vendor",
            "tolerance", "config"]


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def sweep(args, *extra, env=None, expect=0):
    """Runs `a2a sweep` and returns its stderr; fails unless it exits with `expect`."""
    command = [args.a2a, "sweep", *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    sys.stderr.write(done.stderr)
    check(done.returncode == expect,
          f"{' '.join(command)}: exit code {done.returncode}, expected {expect}")
    return done.stderr


def counts(stderr):
    """(already written, to compute) from the sweep's first summary line."""
    match = re.search(r"(\d+) already written, (\d+) to compute", stderr)
    check(match, "no 'already written, to compute' line")
    return int(match.group(1)), int(match.group(2))


def read_csv(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        check(header == COLUMNS, f"{path}: columns {header}")
        return [dict(zip(header, row)) for row in reader]


def comparable(rows):
    """Rows without the simulator's own wall time, in a stable order."""
    out = [tuple((k, v) for k, v in row.items() if k != "simulator_wall_seconds") for row in rows]
    return sorted(out)


def read_json_rows(rows):
    """JSON rows as the CSV writes them (the columns only: a run's JSON has more keys)."""
    def text(value):
        if value is None:
            return ""
        if isinstance(value, float):
            return format(value, ".9g")
        return str(value)
    return [{k: text(row[k]) for k in COLUMNS} for row in rows]


def read_json(path):
    """A JSON output's rows as the CSV writes them."""
    return read_json_rows(json.load(open(path))["rows"])


def same_rows(a, b, what):
    check(comparable(a) == comparable(b), f"{what}: the rows differ")


def reference(args, grid=GRID, name="reference.csv"):
    sweep(args, grid, "--out", name)
    return read_csv(name)


def case_grid(args):
    """Grid expansion: the row count, then CSV and JSON outputs with the contract's columns."""
    done = subprocess.run([args.a2a, "sweep", GRID, "--out", "x.csv", "--dry-run"],
                          capture_output=True, text=True, check=True)
    check(len(done.stdout.strip().splitlines()) == GRID_ROWS + 1, "dry run: row count")
    check(counts(done.stderr) == (0, GRID_ROWS), "dry run: counts")
    rows = reference(args, name="out.csv")
    check(len(rows) == GRID_ROWS, f"CSV: {len(rows)} rows")
    check(len({tuple(r[k] for k in IDENTITY) for r in rows}) == GRID_ROWS, "CSV: duplicate rows")
    check({r["config"] for r in rows} == {"vendor", "parlogna:radix=2", "parlogna:radix=4",
                                          "parlogna:radix=16", "scattered:batch=4"}, "configs")
    check(all(float(r["predicted_seconds"]) > 0 for r in rows), "predicted_seconds")
    check(all(r["workload"] == "uniform:max=" + r["block_bytes"] for r in rows), "{S}")
    # The scale engine's rows say the tolerance they were simulated at (the scenarios' default).
    check(all(r["tolerance"] == "0.05" for r in rows), "tolerance column")
    sweep(args, GRID, "--out", "out.json")
    document = json.load(open("out.json"))
    check(document["sweep"] == GRID, "JSON: sweep")
    check(len(document["rows"]) == GRID_ROWS, "JSON: row count")
    for row in document["rows"]:
        check(list(row.keys()) == COLUMNS, f"JSON: columns {list(row.keys())}")
        check(isinstance(row["ranks"], int) and isinstance(row["block_bytes"], int), "JSON: ints")
        check(isinstance(row["predicted_seconds"], float), "JSON: predicted_seconds")
        check(isinstance(row["check"], str), "JSON: check")
    same_rows(read_json("out.json"), rows, "JSON and CSV outputs")
    check([r["config"] for r in read_json("out.json")] == [r["config"] for r in rows], "order")
    check(not os.path.exists("out.json.journal.csv"), "JSON journal left behind")


def case_schema(args):
    """`a2a run --csv/--json` and `a2a sweep --out` write one schema: the same columns in the same
    order, and for the same scenario the same rows (up to the simulator's own wall time)."""
    scenario = ["--set", "platform=tiny", "--set", "engine=scale", "--set", "ranks=8",
                "--set", "workload=uniform:max=64", "--set", "vendor=mpich",
                "--set", "algorithms=[vendor, {name: parlogna, radix: [2, 4]}, spread_out]"]
    done = subprocess.run([args.a2a, "run", *scenario, "--csv", "run.csv", "--json", "run.json"],
                          capture_output=True, text=True)
    sys.stderr.write(done.stderr)
    check(done.returncode == 0, f"a2a run: exit code {done.returncode}")
    run_rows = read_csv("run.csv")  # checks the header against COLUMNS
    check(len(run_rows) == 4, f"a2a run --csv: {len(run_rows)} rows")
    check({r["vendor"] for r in run_rows} == {"mpich"}, "a2a run --csv: vendor column")
    check([r["config"] for r in run_rows] ==
          ["vendor", "parlogna:radix=2", "parlogna:radix=4", "spread_out"], "a2a run --csv: config")
    check(all(r["platform"] == "tiny" and r["ranks"] == "8" and r["block_bytes"] == ""
              for r in run_rows), "a2a run --csv: identity columns")
    results = json.load(open("run.json"))["results"]
    for row in results:
        check(list(row.keys())[:len(COLUMNS)] == COLUMNS, f"a2a run --json: keys {list(row)}")
    same_rows(read_json_rows(results), run_rows, "a2a run --json and --csv")
    with open("same.yaml", "w") as f:
        f.write("platform: tiny\nengine: scale\nranks: 8\nworkload: \"uniform:max=64\"\n"
                "vendor: mpich\nalgorithms: [vendor, {name: parlogna, radix: [2, 4]}, spread_out]\n")
    sweep(args, "same.yaml", "--out", "sweep.csv")
    same_rows(read_csv("sweep.csv"), run_rows, "a2a sweep and a2a run of one scenario")
    # A run's CSV is a sweep output: a sweep of the same scenario resumes from it.
    check(counts(sweep(args, "same.yaml", "--out", "run.csv")) == (4, 0), "sweep resumes a run's CSV")


def run_rows(args, *sets):
    """`a2a run --csv` of a scenario given as --set KEY=VALUE pairs; its rows."""
    command = [args.a2a, "run", *[a for s in sets for a in ("--set", s)], "--csv", "run.csv"]
    done = subprocess.run(command, capture_output=True, text=True)
    sys.stderr.write(done.stderr)
    check(done.returncode == 0, f"{' '.join(command)}: exit code {done.returncode}")
    return read_csv("run.csv")


def case_vendor(args):
    """`vendor` is a grid key: a list crosses every platform with every MPI, a mapping gives each
    platform its own; every row names its vendor, and a vendor row is what `a2a run` with that
    vendor gives."""
    common = ("engine: scale\nranks: 8\nworkload: \"uniform:max=64\"\n"
              "algorithms: [vendor, spread_out]\n")
    with open("list.yaml", "w") as f:
        f.write("platform: tiny\nvendor: [openmpi, mpich]\n" + common)
    sweep(args, "list.yaml", "--out", "list.csv")
    rows = read_csv("list.csv")
    check([(r["vendor"], r["config"]) for r in rows] ==
          [("openmpi", "vendor"), ("openmpi", "spread_out"), ("mpich", "vendor"),
           ("mpich", "spread_out")], f"list: rows {[(r['vendor'], r['config']) for r in rows]}")
    for vendor in ("openmpi", "mpich"):
        alone = run_rows(args, "platform=tiny", "engine=scale", "ranks=8", "workload=uniform:max=64",
                         f"vendor={vendor}", "algorithms=[vendor]")
        same_rows([r for r in rows if r["vendor"] == vendor and r["config"] == "vendor"], alone,
                  f"the {vendor} row and a2a run --set vendor={vendor}")
    with open("map.yaml", "w") as f:
        f.write("platform: [tiny, small_dragonfly]\n"
                "vendor: {tiny: mpich, small_dragonfly: openmpi}\n" + common)
    sweep(args, "map.yaml", "--out", "map.csv")
    check([(r["platform"], r["vendor"]) for r in read_csv("map.csv")] ==
          [("tiny", "mpich")] * 2 + [("small_dragonfly", "openmpi")] * 2, "mapping: rows")
    with open("missing.yaml", "w") as f:
        f.write("platform: [tiny, small_dragonfly]\nvendor: {tiny: mpich}\n" + common)
    stderr = sweep(args, "missing.yaml", "--out", "missing.csv", expect=2)
    check("missing.yaml:2: key 'vendor': no vendor for platform 'small_dragonfly'" in stderr,
          "mapping without the platform: one line naming it")


def case_progress(args):
    """With stderr not a terminal (a pipe here), progress comes as plain lines: one at once, then
    at most one every 5 seconds — never one per row, and no terminal control characters."""
    start = time.monotonic()
    stderr = sweep(args, GRID, "--out", "out.csv", "--jobs", "1")
    elapsed = time.monotonic() - start
    lines = [line for line in stderr.splitlines() if re.match(r"a2a sweep: \d+/18 rows, ", line)]
    check(lines, "no progress line")
    check(re.fullmatch(r"a2a sweep: \d+/18 rows, \d+:\d\d elapsed, ETA \d+:\d\d", lines[0]),
          f"progress line: {lines[0]!r}")
    check(len(lines) <= 1 + elapsed / 5, f"{len(lines)} progress lines in {elapsed:.1f} s")
    check("\r" not in stderr and "\033" not in stderr, "terminal control characters in a log")


def case_resume(args):
    """Rows deleted (and a line cut short) are computed again, and only they."""
    full = reference(args)
    shutil.copy("reference.csv", "out.csv")
    with open("out.csv") as f:
        lines = f.readlines()
    kept = [lines[0]] + [line for i, line in enumerate(lines[1:]) if i % 4 != 1]
    with open("out.csv", "w") as f:
        f.writelines(kept)
        f.write(lines[2][:30])  # a row an interrupt cut short: no newline
    written = len(kept) - 1
    check(counts(sweep(args, GRID, "--out", "out.csv")) == (written, GRID_ROWS - written),
          "resume: counts")
    same_rows(read_csv("out.csv"), full, "resumed CSV")
    check(counts(sweep(args, GRID, "--out", "out.csv")) == (GRID_ROWS, 0), "rerun: counts")
    # JSON: a journal left by a killed run is read back too.
    sweep(args, GRID, "--out", "out.json", env={"A2A_SWEEP_TEST_FAULT": "kill-sweep:scattered:batch=4"},
          expect=-9)
    check(os.path.exists("out.json.journal.csv"), "JSON: no journal after a kill")
    journal = len(read_csv("out.json.journal.csv"))
    check(counts(sweep(args, GRID, "--out", "out.json")) == (journal, GRID_ROWS - journal),
          "JSON resume: counts")
    same_rows(read_json("out.json"), full, "JSON resumed")


def case_interrupt(args):
    """Killed (SIGKILL) or interrupted (SIGINT) mid-way: the rerun computes only what is missing
    and the result equals an uninterrupted sweep."""
    full = reference(args)
    for kind, code in (("kill-sweep", -9), ("interrupt-sweep", 130)):
        out = kind + ".csv"
        sweep(args, GRID, "--out", out, "--jobs", "1",
              env={"A2A_SWEEP_TEST_FAULT": kind + ":parlogna:radix=4"}, expect=code)
        written = len(read_csv(out))
        check(0 < written < GRID_ROWS, f"{kind}: {written} rows written before it")
        check(counts(sweep(args, GRID, "--out", out)) == (written, GRID_ROWS - written),
              f"{kind}: rerun counts")
        same_rows(read_csv(out), full, kind)
    check(not [f for f in os.listdir(".") if ".partial" in f], "temporary files left behind")


def case_failure(args):
    """A failing configuration: one line each, the others written, exit 1; a rerun retries it."""
    full = reference(args)
    stderr = sweep(args, GRID, "--out", "out.csv", env={"A2A_SWEEP_TEST_FAULT": "fail:parlogna:radix=4"},
                   expect=1)
    failed = [line for line in stderr.splitlines() if "failed:" in line]
    check(len(failed) == 4 and all("config=parlogna:radix=4" in line for line in failed),
          "one line per failed row, naming it")
    check(len(read_csv("out.csv")) == GRID_ROWS - 4, "failed rows are not written")
    stderr = sweep(args, GRID, "--out", "out.csv",
                   env={"A2A_SWEEP_TEST_FAULT": "kill:parlogna:radix=4"}, expect=1)
    check(stderr.count("ended by signal 9") == 4, "one line per row whose worker was killed")
    check(len(read_csv("out.csv")) == GRID_ROWS - 4, "a killed worker's rows are not written")
    check(counts(sweep(args, GRID, "--out", "out.csv")) == (GRID_ROWS - 4, 4), "retry counts")
    same_rows(read_csv("out.csv"), full, "after the retry")


def case_jobs(args):
    """--jobs 1 and --jobs 2 give the same rows, on both engines."""
    for grid in (GRID, SIMGRID):
        sweep(args, grid, "--out", "one.csv", "--jobs", "1")
        sweep(args, grid, "--out", "two.csv", "--jobs", "2")
        one, two = read_csv("one.csv"), read_csv("two.csv")
        check(len(one) > 0 and all(r["check"] in ("-", "pass") for r in one), "checks")
        # The SimGrid engine solves exactly: its rows leave the tolerance empty.
        check(all((r["tolerance"] == "") == (r["engine"] == "simgrid") for r in one), "tolerance")
        same_rows(one, two, f"{os.path.basename(grid)}: --jobs 1 vs 2")
        os.remove("one.csv")
        os.remove("two.csv")


def case_shards(args):
    """--shard 0/2 and 1/2, merged, equal the whole sweep; the shard files go away."""
    full = reference(args)
    sweep(args, GRID, "--out", "out.csv", "--shard", "0/2")
    sweep(args, GRID, "--out", "out.csv", "--shard", "1/2", "--jobs", "1")
    shards = sorted(f for f in os.listdir(".") if ".shard-" in f)
    check(shards == ["out.csv.shard-0-of-2.csv", "out.csv.shard-1-of-2.csv"], f"shards {shards}")
    check(len(read_csv(shards[0])) + len(read_csv(shards[1])) == GRID_ROWS, "shard rows")
    sweep(args, GRID, "--out", "out.csv", "--merge")
    same_rows(read_csv("out.csv"), full, "merged shards")
    check([r["config"] for r in read_csv("out.csv")] == [r["config"] for r in full], "grid order")
    check(not [f for f in os.listdir(".") if ".shard-" in f], "shard files left after --merge")
    # A shard rerun computes nothing it (or the merged output) already has.
    check(counts(sweep(args, GRID, "--out", "out.csv", "--shard", "1/2")) == (9, 0), "shard rerun")


def case_mpi(args):
    """`a2a-mpi sweep` on 2 ranks equals the whole sweep, nothing left but the output; after its
    shards were killed, the rows they had written are merged and a rerun computes the rest."""
    full = reference(args)

    def mpi_sweep(*extra, expect=0):
        command = [*args.mpirun, "-np", "2", *extra, args.a2a_mpi, "sweep", GRID,
                   "--out", "out.json", "--jobs", "1", "--a2a", args.a2a]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        sys.stderr.write(done.stdout + done.stderr)
        check(done.returncode == expect, f"mpirun: exit code {done.returncode}, expected {expect}")
        return done.stderr

    os.environ["A2A_SWEEP_TEST_FAULT"] = "kill-sweep:parlogna:radix=4"
    mpi_sweep("-x", "A2A_SWEEP_TEST_FAULT", expect=128 + 9)
    del os.environ["A2A_SWEEP_TEST_FAULT"]
    merged = len(read_json("out.json"))
    check(0 < merged < GRID_ROWS, f"MPI: {merged} rows merged after the kill")
    stderr = mpi_sweep()
    computed = sum(counts(line)[1] for line in stderr.splitlines() if "to compute" in line)
    check(computed == GRID_ROWS - merged, f"MPI rerun: {computed} rows computed")
    same_rows(read_json("out.json"), full, "MPI sweep")
    check(sorted(os.listdir(".")) == ["out.json", "reference.csv"],
          f"MPI: files left: {sorted(os.listdir('.'))}")


CASES = {name[len("case_"):]: f for name, f in globals().items() if name.startswith("case_")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--a2a", required=True)
    parser.add_argument("--a2a-mpi")
    parser.add_argument("--work", required=True)
    parser.add_argument("--mpirun", nargs=argparse.REMAINDER, default=[])
    args = parser.parse_args()
    args.a2a = os.path.abspath(args.a2a)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    os.chdir(args.work)
    try:
        CASES[args.case](args)
    except Failure as failure:
        print(f"FAIL: {failure}")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
