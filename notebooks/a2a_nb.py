"""What a2a's notebooks share: where the built tools are, running them, and reading what they write.

Nothing here computes a result: every number in the notebooks comes from running the real `a2a`
program (the catalog's code on a simulated machine). Two environment variables:

  A2A_BIN              the `a2a` program to run (default: build/a2a of this repository)
  A2A_NOTEBOOK_SCALE   "small" shrinks every experiment so that CI runs all notebooks in minutes
"""
import os
import pathlib
import re
import subprocess
import tempfile

import pandas as pd

ROOT = pathlib.Path(__file__).resolve().parent.parent
A2A = pathlib.Path(os.environ.get("A2A_BIN", ROOT / "build" / "a2a"))
SMALL = os.environ.get("A2A_NOTEBOOK_SCALE", "full") == "small"


def pick(full, small):
    """The full-scale value, or the small one when A2A_NOTEBOOK_SCALE=small."""
    return small if SMALL else full


def a2a(*args):
    """Runs `a2a ARGS...`; returns its standard output, raises with a2a's own error line."""
    if not A2A.exists():
        raise RuntimeError(f"{A2A} does not exist: build a2a first (scripts/build.sh) or set A2A_BIN")
    done = subprocess.run([str(A2A), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"a2a {' '.join(map(str, args))} failed:\n{done.stderr.strip()}")
    return done.stdout


def settings(**keys):
    """--set arguments from scenario keys (docs/scenarios.md); None values are left out."""
    out = []
    for key, value in keys.items():
        if value is not None:
            out += ["--set", f"{key.replace('__', '.')}={value}"]
    return out


def run(platform, ranks, workload, algorithms, engine="scale", **keys):
    """`a2a run` of one scenario; a DataFrame with one row per algorithm configuration.

    algorithms is the scenario's YAML list, e.g. "[vendor, {name: parlogna, radix: [2, 4]}]";
    further scenario keys go in **keys (ranks_per_node=8, simulation__vendor="mpich").
    """
    with tempfile.TemporaryDirectory() as tmp:
        csv = pathlib.Path(tmp) / "run.csv"
        a2a("run", *settings(platform=platform, ranks=ranks, workload=workload, engine=engine,
                             algorithms=algorithms, **keys), "--csv", csv)
        table = pd.read_csv(csv)
    # The result schema (docs/scenarios.md) names the algorithm by its catalog name and the
    # configuration by its spec ("parlogna:radix=4"); the notebooks label a configuration as the
    # run table does ("parlogna radix=4"), so that each label is one configuration.
    table["algorithm"] = table.config.map(lambda spec: spec.replace(":", " ").replace(",", " "))
    return table


def model(platform, ranks, workload, algorithms, simulate=True, engine="scale", **keys):
    """`a2a model`: the analytic α–β cost of each configuration, beside the simulation's."""
    with tempfile.TemporaryDirectory() as tmp:
        csv = pathlib.Path(tmp) / "model.csv"
        a2a("model", *settings(platform=platform, ranks=ranks, workload=workload, engine=engine,
                               algorithms=algorithms, **keys), "--csv", csv,
            *([] if simulate else ["--no-sim"]))
        table = pd.read_csv(csv)
    table.insert(1, "ranks", ranks)
    table.insert(2, "workload", workload)
    return table


def machine(platform, ranks, **keys):
    """The machine parameters the analytic models read off a platform (docs/models.md), in SI units:
    alpha, beta, beta_nic, alpha_intra, beta_intra, o, copy (s/B), launch (s)."""
    text = a2a("model", "--no-sim", *settings(platform=platform, ranks=ranks, engine="scale",
                                              algorithms="[spread_out]", **keys))
    line = next(line for line in text.splitlines() if line.startswith("# machine:"))
    unit = {"us": 1e-6, "s/B": 1.0}
    return {key: float(value) * unit[suffix]
            for key, value, suffix in re.findall(r"(\w+)=(\S+) (us|s/B)", line)}


def sweep(sweep_yaml, out_csv, jobs=None):
    """`a2a sweep`: runs the grid of SWEEP.yaml (resumable); returns the CSV as a DataFrame."""
    a2a("sweep", sweep_yaml, "--out", out_csv, *(["--jobs", jobs] if jobs else []))
    return pd.read_csv(out_csv)


def label(config):
    """A short label for plots: "parlogna:radix=4" -> "parlogna r=4"."""
    name, _, params = str(config).partition(":")
    short = {"radix": "r", "batch": "b", "ranks_per_node": "Q", "chunk": "c"}
    parts = []
    for item in filter(None, params.split(",")):
        key, _, value = item.partition("=")
        parts.append(f"{short.get(key, key)}={value}")
    return " ".join([name, *parts])
