#!/usr/bin/python3
"""Accuracy of the scale engine against the SimGrid engine (issue 4, docs/accuracy.md).

Runs every scenario of the validation suite with `a2a run --json` on both engines and compares the
predicted time of each configuration: relative error |scale - simgrid| / simgrid, and, for the
scenarios that sweep one parameter (radix, batch), whether both engines pick the same best
configuration. Prints a Markdown report (tables + summary) to stdout or --out.

  bench/accuracy.py [--cache DIR]   # the whole suite (P <= 4,096; ~20 min of SimGrid on 2 cores)
  bench/accuracy.py --quick --check # the subset ctest runs; exit 1 if a target is missed
  TOL=0.1 bench/accuracy.py        # the scale engine with another simulation.tolerance
  bench/accuracy.py --cache DIR --simgrid-a2a OLD/a2a   # after a change to the scale engine only:
                                   # the SimGrid column from OLD's runs, cached in DIR, not rerun

Targets (issue 4): median error <= 5 %, maximum <= 20 %, same best configuration in >= 90 % of
the sweeps.
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAT_TREE = os.path.join(ROOT, "bench", "platforms", "fattree256.yaml")


def scenario(name, platform, ranks, workload, algorithms, sweep=False, ranks_per_node=None):
    return dict(name=name, platform=platform, ranks=ranks, workload=workload,
                algorithms=algorithms, sweep=sweep, ranks_per_node=ranks_per_node)


def radix_sweep(radices):
    return [{"name": "parlogna", "radix": radices}]


def suite(quick):
    """The validation scenarios: dragonfly, torus and fat tree; every family; 16 B to 16 KiB."""
    if quick:
        return [
            scenario("small dragonfly, radix sweep, 1 KiB", "small_dragonfly", 64,
                     "uniform:max=1024", radix_sweep([2, 4, 8, 16, 63]), sweep=True),
            scenario("tiny torus, families, 4 KiB", "tiny", 32, "uniform:max=4096",
                     ["vendor", "two_phase_bruck", "padded_bruck", {"name": "scattered", "batch": [8]},
                      {"name": "parlinna_coalesced", "radix": [2], "batch": [2]}]),
            scenario("fat tree, scattered batch sweep, 256 B", FAT_TREE, 128, "uniform:max=256",
                     [{"name": "scattered", "batch": [1, 4, 16, 64]}], sweep=True),
        ]
    out = []
    # Dragonfly (small_dragonfly: 4 ranks per node; polaris: 32), ParLogNa radix sweeps.
    for ranks in (64, 256):
        for size in (16, 1024, 16384):
            out.append(scenario(f"small dragonfly P={ranks}, radix sweep, uniform <= {size} B",
                                "small_dragonfly", ranks, f"uniform:max={size}",
                                radix_sweep([2, 4, 8, 16, ranks - 1]), sweep=True))
    # ParLinNa batch sweeps (SimGrid needs 12 min for one at P = 1,024: kept to P = 512).
    batch_sweep = [{"name": "parlinna_coalesced", "radix": [4], "batch": [1, 2, 4, 8, 16]}]
    for size in (256, 4096):
        out.append(scenario(f"polaris P=512, ParLinNa batch sweep, uniform <= {size} B",
                            "polaris", 512, f"uniform:max={size}", batch_sweep, sweep=True))
    out.append(scenario("small dragonfly P=256, ParLinNa batch sweep, uniform <= 1024 B",
                        "small_dragonfly", 256, "uniform:max=1024", batch_sweep, sweep=True))
    # Torus (fugaku: 48 ranks per node), radix sweeps.
    for ranks, size in ((192, 64), (192, 4096), (768, 1024)):
        out.append(scenario(f"fugaku torus P={ranks}, radix sweep, uniform <= {size} B", "fugaku",
                            ranks, f"uniform:max={size}", radix_sweep([2, 4, 16, 64]), sweep=True))
    # Fat tree, scattered batch sweeps.
    for size in (1024, 16384):
        out.append(scenario(f"fat tree P=256, scattered batch sweep, uniform <= {size} B", FAT_TREE,
                            256, f"uniform:max={size}",
                            [{"name": "scattered", "batch": [1, 4, 16, 64]}], sweep=True))
    # Every family side by side, uniform (MPI_Alltoall) and non-uniform blocks.
    families = ["vendor", "two_phase_bruck", "padded_bruck", "padded_alltoall",
                {"name": "parlinna_staggered", "radix": [2]},
                {"name": "parlinna_coalesced", "radix": [2], "batch": [4]}]
    uniform_only = ["bruck_basic", "bruck_modified", {"name": "bruck_radix", "radix": [4]},
                    "bruck_zero_rotation"]
    for platform, ranks in (("small_dragonfly", 256), ("tiny", 64), (FAT_TREE, 256)):
        label = "fat tree" if platform == FAT_TREE else platform
        for size in (16, 1024, 16384):
            out.append(scenario(f"{label} P={ranks}, families, uniform <= {size} B", platform, ranks,
                                f"uniform:max={size}", families))
        out.append(scenario(f"{label} P={ranks}, Bruck variants, constant {2048} B", platform,
                            ranks, "constant:size=2048", uniform_only + ["two_phase_bruck"]))
    out.append(scenario("small dragonfly P=64, linear family, powerlaw", "small_dragonfly", 64,
                        "powerlaw", ["spread_out", "ompi_linear", "ompi_pairwise", "xor_pairwise",
                                     {"name": "scattered", "batch": [8]}]))
    out.append(scenario("fugaku torus P=96, memory family, constant 512 B", "fugaku", 96,
                        "constant:size=512",
                        ["bitonic_inplace", "two_phase_bruck", {"name": "parlogna", "radix": [2]}]))
    # The largest P of the suite.
    for ranks in (2048, 4096):
        out.append(scenario(f"polaris P={ranks}, two-phase Bruck and ParLogNa r=2, uniform <= 1 KiB",
                            "polaris", ranks, "uniform:max=1024",
                            ["two_phase_bruck", {"name": "parlogna", "radix": [2]}]))
    return out


def yaml_of(s, engine):
    # JSON is YAML: the scenario file is written as JSON.
    doc = {"platform": s["platform"], "ranks": s["ranks"], "workload": s["workload"],
           "engine": engine, "algorithms": s["algorithms"],
           # The model both engines share: without the terms only the scale engine models (NIC
           # message rate, matching, eager/rendezvous, node memory, adaptive routing).
           "simulation": {"full_model": False}}
    if engine == "scale":
        doc["simulation"]["tolerance"] = float(os.environ.get("TOL", "0.05"))
    if s["ranks_per_node"]:
        doc["ranks_per_node"] = s["ranks_per_node"]
    return json.dumps(doc)


def run(a2a, s, engine, workdir, cache):
    text = yaml_of(s, engine)
    cached = None
    if cache:
        key = hashlib.sha1((text + os.path.getmtime(a2a).hex()).encode()).hexdigest()[:16]
        cached = os.path.join(cache, f"{key}.json")
        if os.path.exists(cached):
            with open(cached) as f:
                saved = json.load(f)
            return saved["predicted"], saved["wall"]
    path = os.path.join(workdir, "scenario.yaml")
    out = os.path.join(workdir, f"{engine}.json")
    with open(path, "w") as f:
        f.write(text)
    start = time.monotonic()
    proc = subprocess.run([a2a, "run", path, "--json", out], capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"accuracy.py: error: {s['name']} ({engine}): {proc.stderr.strip()}")
    with open(out) as f:
        doc = json.load(f)
    predicted = {r["label"]: r["predicted_seconds"] for r in doc["results"]}
    if cached:
        with open(cached + ".partial", "w") as f:
            json.dump({"predicted": predicted, "wall": wall}, f)
        os.replace(cached + ".partial", cached)
    return predicted, wall


def fmt_time(seconds):
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.3f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2a", default=os.path.join(ROOT, "build", "a2a"))
    parser.add_argument("--quick", action="store_true", help="the small subset ctest runs")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--out", help="write the Markdown report here (default: stdout)")
    parser.add_argument("--cache", help="keep each run's predictions here and reuse them (same "
                        "scenario and same a2a binary), so an interrupted suite resumes")
    parser.add_argument("--simgrid-a2a", help="the a2a whose SimGrid engine gives the reference "
                        "column (default: --a2a); with --cache, an earlier build's cached SimGrid "
                        "runs are reused instead of rerun when only the scale engine changed")
    args = parser.parse_args()
    simgrid_a2a = args.simgrid_a2a or args.a2a
    for option, path in (("--a2a", args.a2a), ("--simgrid-a2a", simgrid_a2a)):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            print(f"accuracy.py: error: {option} {path}: not an executable file", file=sys.stderr)
            return 2
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)

    rows, errors, sweeps, agree = [], [], 0, 0
    wall = {"simgrid": 0.0, "scale": 0.0}
    with tempfile.TemporaryDirectory() as workdir:
        for s in suite(args.quick):
            reference, wall_sg = run(simgrid_a2a, s, "simgrid", workdir, args.cache)
            scaled, wall_sc = run(args.a2a, s, "scale", workdir, args.cache)
            wall["simgrid"] += wall_sg
            wall["scale"] += wall_sc
            for label, expected in reference.items():
                got = scaled[label]
                error = abs(got - expected) / expected if expected > 0 else abs(got)
                errors.append(error)
                rows.append((s["name"], label, expected, got, error))
            if s["sweep"]:
                sweeps += 1
                best_sg = min(reference, key=reference.get)
                best_sc = min(scaled, key=scaled.get)
                same = best_sg == best_sc
                agree += same
                rows.append((s["name"], "best", best_sg, best_sc, None if same else "differs"))
            print(f"accuracy.py: {s['name']}: simgrid {wall_sg:.1f} s, scale {wall_sc:.1f} s",
                  file=sys.stderr)

    median, worst = statistics.median(errors), max(errors)
    agreement = agree / sweeps if sweeps else 1.0
    reference_from = ("" if simgrid_a2a == args.a2a else
                      f" The SimGrid column is from the binary {simgrid_a2a}"
                      f" (`--simgrid-a2a`), the scale column from {args.a2a}.")
    lines = [
        f"Scale engine vs SimGrid engine: {len({r[0] for r in rows})} scenarios, "
        f"{len(errors)} configurations, {sweeps} sweeps "
        f"(`bench/accuracy.py{' --quick' if args.quick else ''}`).{reference_from}",
        "",
        "| | measured | target |",
        "|---|---|---|",
        f"| median relative error of the predicted time | {median * 100:.2f} % | <= 5 % |",
        f"| maximum relative error | {worst * 100:.2f} % | <= 20 % |",
        f"| sweeps with the same best configuration | {agree} of {sweeps} ({agreement * 100:.0f} %)"
        f" | >= 90 % |",
        f"| simulator wall time, whole suite | SimGrid {wall['simgrid']:.1f} s, scale "
        f"{wall['scale']:.1f} s ({wall['simgrid'] / max(wall['scale'], 1e-9):.1f}x) | |",
        "",
        "| scenario | configuration | SimGrid | scale | error |",
        "|---|---|---|---|---|",
    ]
    for name, label, expected, got, error in rows:
        if label == "best":
            lines.append(f"| {name} | best configuration | {expected} | {got} | "
                         f"{'same' if error is None else error} |")
        else:
            lines.append(f"| {name} | {label} | {fmt_time(expected)} | {fmt_time(got)} | "
                         f"{error * 100:.2f} % |")
    report = "\n".join(lines) + "\n"
    if args.out:
        tmp = args.out + ".partial"
        with open(tmp, "w") as f:
            f.write(report)
        os.replace(tmp, args.out)
    else:
        sys.stdout.write(report)
    if args.check and (median > 0.05 or worst > 0.20 or agreement < 0.90):
        print(f"accuracy.py: error: targets missed (median {median:.2%}, max {worst:.2%}, "
              f"same best {agreement:.0%})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
