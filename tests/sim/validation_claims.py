#!/usr/bin/python3
"""The verdicts of bench/validation.py's claim kinds, on made-up times (no simulation): each kind
must pass what the paper's claim says and fail what it does not, so that a wrong verdict in
docs/validation.md cannot come from the checker itself. Also its cache, with a stand-in for a2a:
one file per configuration, only new configurations simulated, none under --cached-only.

  tests/sim/validation_claims.py
"""
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("validation",
                                              os.path.join(ROOT, "bench", "validation.py"))
validation = importlib.util.module_from_spec(spec)
spec.loader.exec_module(validation)
evaluate, best_of, Refused = validation.evaluate, validation.best_of, validation.Refused

RADIX_GRID = [f"parlogna:radix={r}" for r in (2, 4, 8, 16, 32, 64)]


def claim(kind, a, b=None, measured=None, param=None):
    return dict(id="t", role="validation", platform="polaris", ranks=64, workload="uniform:max=16",
                kind=kind, a=a, b=b, measured=measured, param=param)


def radix_times(*seconds):
    """Times for RADIX_GRID, in its order (floats: anything else is a refusal's text)."""
    return dict(zip(RADIX_GRID, map(float, seconds)))


class Time(unittest.TestCase):
    def test_within_two_times_either_way(self):
        c = claim("time", "vendor", measured=1.0)
        for seconds, ok in ((0.5, True), (1.99, True), (2.0, True), (0.49, False), (2.01, False)):
            value, spec, verdict = evaluate(c, {"vendor": seconds})
            self.assertEqual((value, spec, verdict), (seconds, "vendor", ok), seconds)

    def test_per_step_compares_a_step_at_each_p(self):
        # Measured: 1 s over the 100 steps of P = 101; a2a simulated at P = 11 (10 steps).
        c = dict(claim("per_step", "vendor", measured=1.0), ranks=101, simulated_ranks=11,
                 ranks_per_node=4)
        for seconds, ok in ((0.1, True), (0.05, True), (0.2, True), (0.049, False),
                            (0.201, False)):
            value, spec, verdict = evaluate(c, {"vendor": seconds})
            self.assertAlmostEqual(value, seconds / 10)
            self.assertEqual((spec, verdict), ("vendor", ok), seconds)
        self.assertEqual(validation.claim_keys(c), [("polaris", 11, "uniform:max=16", 4)])

    def test_per_step_error_is_a_steps(self):
        c = dict(claim("per_step", "vendor", measured=1.0), ranks=101, simulated_ranks=11)
        self.assertAlmostEqual(validation.time_ratio(c, 0.012), 1.2)  # 12 ms a step against 10
        error, ratio, cid = validation.time_error(c, 0.008)
        self.assertAlmostEqual(error, 0.2)
        self.assertAlmostEqual(ratio, 0.8)
        self.assertEqual(cid, "t")

    def test_fujitsu_imb_rows(self):
        rows = {c["id"]: c for c in validation.fujitsu_imb_claims()}
        self.assertEqual(sorted(rows), ["imb110592-1024-vendor", "imb110592-128-bruck_modified",
                                        "imb110592-256-vendor", "imb110592-512-vendor",
                                        "imb16-1024-vendor", "imb16-16-vendor", "imb16-256-vendor",
                                        "imb16-64-vendor"])
        # 16 ranks (one per node) are simulated whole.
        small = rows["imb16-16-vendor"]
        self.assertEqual((small["kind"], small["ranks_per_node"]), ("time", 1))
        self.assertEqual(validation.claim_keys(small), [("fugaku", 16, "constant:size=16", 1)])
        bruck = rows["imb110592-128-bruck_modified"]
        self.assertEqual((bruck["kind"], bruck["ranks"], bruck["ranks_per_node"]),
                         ("time", 110592, 4))
        self.assertEqual(validation.claim_keys(bruck),
                         [("fugaku_full", 110592, "constant:size=128", 4)])
        step = rows["imb110592-256-vendor"]
        self.assertEqual((step["kind"], step["ranks"], step["simulated_ranks"]),
                         ("per_step", 110592, validation.PER_STEP_RANKS))
        self.assertEqual(validation.claim_keys(step),
                         [("fugaku_full", validation.PER_STEP_RANKS, "constant:size=256", 4)])

    def test_max_ranks_counts_the_ranks_simulated(self):
        step = dict(claim("per_step", "vendor", measured=1.0), ranks=110592, simulated_ranks=64,
                    ranks_per_node=4)
        whole = dict(claim("time", "bruck_modified", measured=1.0), ranks=110592,
                     ranks_per_node=4)
        self.assertEqual(validation.planned_groups([step, whole], 4096),
                         {("polaris", 64, "uniform:max=16", 4): {"vendor"}})

    def test_planned_groups_take_both_sides_and_the_barrier_free_twin(self):
        # At exactly --max-ranks a claim still runs; both sides are planned, and beside the
        # logged code's ParLogNa (barrier=1) a2a's own (no barrier).
        c = claim("speedup", "parlogna:radix=4,barrier=1", "vendor", measured=2.0)
        self.assertEqual(validation.planned_groups([c], 64),
                         {("polaris", 64, "uniform:max=16", 0):
                          {"parlogna:radix=4,barrier=1", "parlogna:radix=4", "vendor"}})
        self.assertEqual(validation.planned_groups([c], 63), {})

    def test_best_of_a_family_is_its_fastest(self):
        c = claim("time", best_of("parlogna", RADIX_GRID), measured=1.0)
        value, spec, _ = evaluate(c, radix_times(3, 2, 1.5, 4, 5, 6))
        self.assertEqual((value, spec), (1.5, "parlogna:radix=8"))


class Speedup(unittest.TestCase):
    def test_ratio_within_thirty_percent(self):
        c = claim("speedup", "parlogna:radix=2", "vendor", measured=10.0)
        for vendor, ok in ((10.0, True), (12.9, True), (7.7, True), (13.1, False), (7.6, False)):
            value, _, verdict = evaluate(c, {"parlogna:radix=2": 1.0, "vendor": vendor})
            self.assertAlmostEqual(value, vendor)
            self.assertEqual(verdict, ok, vendor)

    def test_faster_against_the_best_of_rivals(self):
        rivals = best_of("two-phase Bruck or vendor", ["two_phase_bruck", "vendor"])
        c = claim("faster", "padded_bruck", rivals)
        value, pair, ok = evaluate(c, {"padded_bruck": 1.0, "two_phase_bruck": 0.8, "vendor": 3.0})
        self.assertEqual((pair, ok), ("padded_bruck vs two_phase_bruck", False))
        self.assertAlmostEqual(value, 0.8)
        _, _, ok = evaluate(c, {"padded_bruck": 1.0, "two_phase_bruck": 1.2, "vendor": 3.0})
        self.assertTrue(ok)

    def test_a_side_not_simulated_is_refused(self):
        c = claim("speedup", "parlogna:radix=2", "vendor", measured=2.0)
        with self.assertRaises(Refused):
            evaluate(c, {"parlogna:radix=2": 1.0, "vendor": "refused: needs 40 GiB"})


class BestParam(unittest.TestCase):
    def test_within_one_step_of_the_grid(self):
        c = claim("best_param", best_of("parlogna", RADIX_GRID), measured=4, param="radix")
        for times, best, ok in ((radix_times(2, 1, 3, 4, 5, 6), 4, True),
                                (radix_times(1, 2, 3, 4, 5, 6), 2, True),
                                (radix_times(3, 2, 1, 4, 5, 6), 8, True),
                                (radix_times(3, 2, 4, 1, 5, 6), 16, False)):
            value, _, verdict = evaluate(c, times)
            self.assertEqual((value, verdict), (best, ok), times)

    def test_batch_of_a_radix_batch_grid(self):
        grid = [f"parlinna_staggered:radix={r},batch={b}" for r in (2, 8) for b in (2, 32, 1024)]
        times = {spec: 1.0 for spec in grid}
        times["parlinna_staggered:radix=8,batch=2"] = 0.5
        c = claim("best_param", best_of("parlinna_staggered", grid), measured=1024, param="batch")
        self.assertEqual(evaluate(c, times)[::2], (2, False))
        times["parlinna_staggered:radix=2,batch=32"] = 0.4
        self.assertEqual(evaluate(c, times)[::2], (32, True))


class FastestSlowest(unittest.TestCase):
    VARIANTS = best_of("bruck", ["bruck_basic", "bruck_zero_copy", "bruck_zero_rotation"])
    TIMES = {"bruck_basic": 3.0, "bruck_zero_copy": 1.0, "bruck_zero_rotation": 2.0}

    def test_fastest(self):
        c = claim("fastest", self.VARIANTS, measured="bruck_zero_rotation")
        self.assertEqual(evaluate(c, self.TIMES),
                         ("bruck_zero_copy", "bruck_zero_copy fastest, bruck_basic slowest", False))
        self.assertTrue(evaluate(dict(c, measured="bruck_zero_copy"), self.TIMES)[2])

    def test_slowest(self):
        c = claim("slowest", self.VARIANTS, measured="bruck_basic")
        self.assertEqual(evaluate(c, self.TIMES)[::2], ("bruck_basic", True))
        self.assertFalse(evaluate(dict(c, measured="bruck_zero_copy"), self.TIMES)[2])

    def test_every_member_must_have_run(self):
        c = claim("slowest", self.VARIANTS, measured="bruck_basic")
        with self.assertRaises(Refused):
            evaluate(c, dict(self.TIMES, bruck_basic="timeout"))


class Grows(unittest.TestCase):
    def claim(self):
        return claim("grows", best_of("parlogna", RADIX_GRID), param="radix")

    def test_increasing_and_nearly_increasing(self):
        for times in (radix_times(1, 2, 3, 4, 5, 6), radix_times(2, 1, 3, 4, 6, 5)):
            self.assertTrue(evaluate(self.claim(), times)[2], times)

    def test_a_u_shape_or_a_falling_curve_fails(self):
        u_shape = radix_times(4, 2, 1, 2, 3, 3.5)
        self.assertEqual(evaluate(self.claim(), u_shape)[::2], ((8, 2), False))
        late_minimum = radix_times(3, 2, 1, 4, 5, 6)
        self.assertEqual(evaluate(self.claim(), late_minimum)[::2], ((8, 64), False))
        falling = radix_times(6, 5, 4, 3, 2, 1)
        self.assertEqual(evaluate(self.claim(), falling)[::2], ((64, 2), False))


class ShrinksAndUShape(unittest.TestCase):
    def claim(self, kind):
        return claim(kind, best_of("parlogna", RADIX_GRID), param="radix")

    def test_shrinks_is_grows_mirrored(self):
        self.assertTrue(evaluate(self.claim("shrinks"), radix_times(6, 5, 4, 3, 1, 2))[2])
        self.assertEqual(evaluate(self.claim("shrinks"), radix_times(1, 2, 3, 4, 5, 6))[::2],
                         ((2, 64), False))
        self.assertFalse(evaluate(self.claim("shrinks"), radix_times(6, 5, 4, 1, 2, 3))[2])

    def test_u_shape_needs_its_minimum_two_steps_inside(self):
        u_claim = self.claim("u_shape")
        self.assertEqual(evaluate(u_claim, radix_times(4, 2, 1, 2, 3, 3.5))[::2], ((8, 2), True))
        self.assertTrue(evaluate(u_claim, radix_times(4, 3, 2, 1, 3, 3.5))[2])
        for edge in (radix_times(3, 1, 2, 4, 5, 6), radix_times(6, 5, 4, 3, 1, 2),
                     radix_times(1, 2, 3, 4, 5, 6)):
            self.assertFalse(evaluate(u_claim, edge)[2], edge)


class Competitive(unittest.TestCase):
    STAGGERED = "parlinna_staggered:radix=2,batch=8"
    COALESCED = "parlinna_coalesced:radix=2,batch=8"

    def verdicts(self, coalesced_over_staggered):
        times = {self.STAGGERED: 1.0, self.COALESCED: 1.0 / coalesced_over_staggered}
        return [evaluate(claim(kind, self.STAGGERED, self.COALESCED), times)[2]
                for kind in ("competitive", "not_competitive")]

    def test_within_thirty_percent_is_competitive(self):
        for ratio in (0.5, 1.0, 1.29):
            self.assertEqual(self.verdicts(ratio), [True, False], ratio)

    def test_more_than_thirty_percent_slower_is_not(self):
        for ratio in (1.31, 17.0):
            self.assertEqual(self.verdicts(ratio), [False, True], ratio)


class SpreadLarger(unittest.TestCase):
    @staticmethod
    def family(variant):
        return best_of(f"parlinna_{variant}", [f"parlinna_{variant}:radix={r},batch={b}"
                                               for r in (2, 8) for b in (2, 32)])

    def test_spread_at_the_best_radix_only(self):
        c = claim("spread_larger", self.family("staggered"), self.family("coalesced"),
                  param="batch")
        times = {"parlinna_staggered:radix=2,batch=2": 1.0,
                 "parlinna_staggered:radix=2,batch=32": 3.0,
                 # radix 8's wide spread must not count: its best is not the family's
                 "parlinna_staggered:radix=8,batch=2": 1.5,
                 "parlinna_staggered:radix=8,batch=32": 30.0,
                 "parlinna_coalesced:radix=2,batch=2": 1.0,
                 "parlinna_coalesced:radix=2,batch=32": 2.0,
                 "parlinna_coalesced:radix=8,batch=2": 0.9,
                 "parlinna_coalesced:radix=8,batch=32": 0.5}
        value, _, ok = evaluate(c, times)
        self.assertEqual((value, ok), ((3.0, 1.8), True))
        times["parlinna_staggered:radix=2,batch=32"] = 1.7
        self.assertEqual(evaluate(c, times)[::2], ((1.7, 1.8), False))


class RisesAndFalls(unittest.TestCase):
    """A claim across S: `times` holds one dict of predictions per S, smallest S first."""

    def claim(self, kind):
        return claim(kind, best_of("parlogna", RADIX_GRID), param="radix")

    @staticmethod
    def at_sizes(*bests):
        """One S per radix given: that radix fastest there."""
        return [{spec: 1.0 if spec == f"parlogna:radix={r}" else 2.0 for spec in RADIX_GRID}
                for r in bests]

    def test_rising_with_one_step_back_allowed(self):
        for bests in ((2, 8, 64), (2, 2, 4), (4, 2, 16), (2, 16, 8, 64)):
            value, _, ok = evaluate(self.claim("rises"), self.at_sizes(*bests))
            self.assertEqual((value, ok), (bests, True), bests)

    def test_flat_falling_or_dropping_two_steps_fails(self):
        # (2, 16, 8, 4): one step down twice is two below the highest so far
        for bests in ((4, 4, 4), (64, 8, 2), (2, 32, 8, 64), (2, 16, 8, 4, 32)):
            self.assertFalse(evaluate(self.claim("rises"), self.at_sizes(*bests))[2], bests)

    def test_falls_is_rises_mirrored(self):
        self.assertTrue(evaluate(self.claim("falls"), self.at_sizes(64, 8, 16, 2))[2])
        self.assertFalse(evaluate(self.claim("falls"), self.at_sizes(2, 8, 64))[2])
        self.assertFalse(evaluate(self.claim("falls"), self.at_sizes(8, 8))[2])

    def test_every_size_must_have_run(self):
        times = self.at_sizes(2, 8)
        del times[1]["parlogna:radix=64"]
        with self.assertRaises(Refused):
            evaluate(self.claim("rises"), times)


class Leads(unittest.TestCase):
    """Claims on how a lead (b / a) moves across S or P: one dict of predictions per group."""

    @staticmethod
    def at(*leads):
        """One group per lead given: the vendor `lead` times slower than parlogna:radix=2."""
        return [{"parlogna:radix=2": 1.0, "vendor": float(lead)} for lead in leads]

    def claim(self, kind, sizes=None, threshold=None, **more):
        return dict(claim(kind, "parlogna:radix=2", "vendor"), sizes=sizes, threshold=threshold,
                    **more)

    def test_advantage_below_a_threshold(self):
        c = self.claim("advantage_below", sizes=[16, 128, 512, 2048], threshold=512)
        for leads, ok in (((30, 12, 5, 6), True), ((30, 12, 13, 1), False),
                          ((4, 12, 5, 3), False), ((2, 3, 1.5, 1.9), True)):
            value, spec, verdict = evaluate(c, self.at(*leads))
            self.assertEqual((value, verdict), (leads, ok), leads)
        self.assertEqual(validation.fmt(c, (30.0, 12.0, 5.0, 6.0)),
                         "16: 30x, 128: 12x, 512: 5x, 2048: 6x")

    def test_advantage_falls_with_thirty_percent_back(self):
        c = self.claim("advantage_falls", sizes=[512, 1024, 2048])
        for leads, ok in (((6, 4, 1), True), ((6, 7.8, 1), True), ((6, 7.9, 1), False),
                          ((1, 0.7, 0.9), True), ((1, 0.9, 1.1), False), ((1, 1.2, 1.5), False), ((2, 2, 2), False)):
            self.assertEqual(evaluate(c, self.at(*leads))[2], ok, leads)

    def test_largest_lead_within_thirty_percent(self):
        c = self.claim("largest_lead", measured=1.5,
                       groups=[(64, "uniform:max=16"), (128, "uniform:max=2048")])
        for leads, ok in (((1.5, 0.5), True), ((0.9, 1.9), True), ((1.1, 1.0), True),
                          ((1.2, 2.0), False), ((1.96, 0.5), False)):
            self.assertEqual(evaluate(c, self.at(*leads))[2], ok, leads)
        self.assertEqual(validation.fmt(c, (1.2, 2.0)), "2x (P = 128, uniform:max=2048)")
        self.assertEqual([key[1:3] for key in validation.claim_keys(c)],
                         [(64, "uniform:max=16"), (128, "uniform:max=2048")])

    def test_lead_grows_with_p_and_each_p_has_its_own_side(self):
        c = self.claim("lead_grows", rank_counts=[64, 128], ranks=128)
        c["a"] = ["parlogna:radix=2", "parlogna:radix=4"]
        times = [{"parlogna:radix=2": 1.0, "vendor": 2.0},
                 {"parlogna:radix=4": 1.0, "vendor": 3.0}]
        value, spec, ok = evaluate(c, times)
        self.assertEqual((value, spec, ok), ((2.0, 3.0), "parlogna:radix=2; parlogna:radix=4",
                                             True))
        self.assertFalse(evaluate(c, [{"parlogna:radix=2": 1.0, "vendor": 3.0},
                                      {"parlogna:radix=4": 1.0, "vendor": 2.0}])[2])
        self.assertFalse(evaluate(c, [{"parlogna:radix=2": 1.0, "vendor": 0.9},
                                      {"parlogna:radix=4": 1.0, "vendor": 3.0}])[2])
        self.assertEqual(validation.claim_keys(c), [("polaris", 64, "uniform:max=16", 0),
                                                    ("polaris", 128, "uniform:max=16", 0)])
        groups = validation.planned_groups([c], 1 << 30)
        self.assertEqual(groups, {("polaris", 64, "uniform:max=16", 0): {"parlogna:radix=2",
                                                                        "vendor"},
                                  ("polaris", 128, "uniform:max=16", 0): {"parlogna:radix=4",
                                                                         "vendor"}})


# A stand-in for `a2a run SCENARIO --json OUT`: predicts 1 ms per unit of radix (vendor: 5 ms),
# and logs which configurations it was asked for.
FAKE_A2A = """#!/usr/bin/python3
import json, os, sys
doc = json.load(open(sys.argv[2]))
with open(sys.argv[0] + ".log", "a") as log:
    per_node = f" q={doc['ranks_per_node']}" if "ranks_per_node" in doc else ""
    log.write(" ".join(doc["algorithms"]) + per_node + "\\n")
if "refused" in doc["algorithms"]:
    sys.stderr.write("a2a: the scale simulation needs about 40 GiB\\n")
    sys.exit(1)
if "stopped" in doc["algorithms"]:
    import os, signal
    os.kill(os.getpid(), signal.SIGKILL)
if "interrupted" in doc["algorithms"]:
    sys.exit(130)  # as a2a run after a SIGINT
hang = os.environ.get("FAKE_A2A_HANG")
if hang:  # a long run, which like a2a's finishes its configuration on a SIGINT
    import signal, time
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    open(os.path.join(hang, str(os.getpid())), "w").close()
    time.sleep(300)
results = []
for spec in doc["algorithms"]:
    name, _, params = spec.partition(":")
    seconds = 0.005 if name == "vendor" else int(params.split("=")[1]) * 1e-3
    results.append({"label": " ".join([name] + params.split(",")).strip(),
                    "predicted_seconds": seconds})
json.dump({"results": results}, open(sys.argv[4], "w"))
"""


class CachePerConfiguration(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.a2a = os.path.join(self.work.name, "a2a")
        with open(self.a2a, "w") as f:
            f.write(FAKE_A2A)
        os.chmod(self.a2a, 0o755)
        self.cache = os.path.join(self.work.name, "cache")
        os.makedirs(self.cache)
        self.binary = {p: "model" for p in validation.VENDOR}

    def tearDown(self):
        self.work.cleanup()

    def simulate(self, configs, cached_only=False, ranks_per_node=0):
        return validation.simulate(self.a2a, "polaris", 64, "uniform:max=16", configs,
                                   self.cache, self.binary, cached_only, ranks_per_node)

    def runs(self):
        with open(self.a2a + ".log") as f:
            return f.read().splitlines()

    def test_only_new_configurations_are_simulated(self):
        first = self.simulate(["parlogna:radix=2", "vendor"])
        self.assertEqual(first, {"parlogna:radix=2": 0.002, "vendor": 0.005})
        second = self.simulate(["parlogna:radix=2", "parlogna:radix=4", "vendor"])
        self.assertEqual(second, {"parlogna:radix=2": 0.002, "parlogna:radix=4": 0.004,
                                  "vendor": 0.005})
        # One run a configuration, so that a rerun stopped midway keeps what it finished.
        self.assertEqual(self.runs(), ["parlogna:radix=2", "vendor", "parlogna:radix=4"])
        self.assertEqual(len(os.listdir(self.cache)), 3)

    def test_groups_side_by_side(self):
        groups = {("polaris", 64, "uniform:max=16", 0): ["parlogna:radix=2", "vendor"],
                  ("theta", 64, "uniform:max=16", 4): ["vendor"]}
        times = validation.simulate_groups(self.a2a, groups, self.cache, self.binary, jobs=2)
        self.assertEqual(times, {("polaris", 64, "uniform:max=16", 0):
                                 {"parlogna:radix=2": 0.002, "vendor": 0.005},
                                 ("theta", 64, "uniform:max=16", 4): {"vendor": 0.005}})
        self.assertEqual(sorted(self.runs()), ["parlogna:radix=2", "vendor", "vendor q=4"])
        self.assertEqual(validation.simulate_groups(self.a2a, groups, self.cache, self.binary,
                                                    jobs=2), times)
        self.assertEqual(len(self.runs()), 3)

    def test_an_entry_keeps_what_its_run_cost(self):
        self.simulate(["parlogna:radix=2", "vendor"])
        for name in os.listdir(self.cache):
            with open(os.path.join(self.cache, name)) as f:
                entry = json.load(f)
            self.assertEqual(entry["run_configurations"], 1)
            self.assertIsInstance(entry["run_wall_seconds"], float)

    def test_cached_only_leaves_the_rest_out(self):
        self.simulate(["parlogna:radix=2"])
        self.assertEqual(self.simulate(["parlogna:radix=2", "vendor"], cached_only=True),
                         {"parlogna:radix=2": 0.002})
        self.assertEqual(self.runs(), ["parlogna:radix=2"])

    def test_ranks_per_node_is_its_own_scenario_and_cache_entry(self):
        self.simulate(["vendor"])
        self.simulate(["vendor"], ranks_per_node=4)
        self.simulate(["vendor"], ranks_per_node=4)
        self.assertEqual(self.runs(), ["vendor", "vendor q=4"])
        # The preset's ranks per node is left out of the scenario, so that the cache keys of the
        # claims that do not set it stay what they were.
        self.assertNotIn("ranks_per_node",
                         validation.scenario_of("polaris", 64, "uniform:max=16", ["vendor"]))

    def test_another_model_misses_the_cache(self):
        self.simulate(["vendor"])
        self.binary = {p: "changed sources" for p in validation.VENDOR}
        self.simulate(["vendor"])
        self.assertEqual(self.runs(), ["vendor", "vendor"])

    def test_claims_are_simulated_on_this_trees_preset_file(self):
        # Not on the preset by name: the binary holds the presets it was built with, which need
        # not be the file the cache key hashes (stop 50 lost an hour of a rerun to that).
        doc = validation.scenario_of("polaris", 64, "uniform:max=16", ["vendor"])
        self.assertEqual(doc["platform"], os.path.join(ROOT, "platforms", "presets",
                                                       "polaris.yaml"))
        self.assertTrue(os.path.isfile(doc["platform"]))

    def test_a_refusal_is_cached_with_its_reason(self):
        why = {"refused": "a2a: the scale simulation needs about 40 GiB"}
        self.assertEqual(self.simulate(["refused"]), why)
        self.assertEqual(self.simulate(["refused"]), why)
        self.assertEqual(self.runs(), ["refused"])

    def test_a_run_ended_by_a_signal_is_not_cached(self):
        # A killed run (a session's end, Ctrl-C, the OOM killer) is not a refusal: caching its
        # text would leave the configuration "not run" for good.
        with self.assertRaises(validation.RunStopped):
            self.simulate(["stopped"])
        self.assertEqual(os.listdir(self.cache), [])
        self.assertEqual(self.simulate(["vendor"]), {"vendor": 0.005})

    def test_an_interrupted_run_is_not_a_refusal(self):
        # a2a run exits 130 after a SIGINT: its text is no reason to leave the configuration out.
        with self.assertRaises(validation.RunStopped):
            self.simulate(["interrupted"])
        self.assertEqual(os.listdir(self.cache), [])

    def test_an_a2a_that_cannot_run_stops_the_rerun(self):
        # A binary being rebuilt (or never built) is a reason to stop, in one line: it was a
        # traceback, and caching nothing.
        os.chmod(self.a2a, 0o644)
        with self.assertRaisesRegex(validation.RunStopped, "cannot run .*a2a \\(Permission"):
            self.simulate(["vendor"])
        self.assertEqual(os.listdir(self.cache), [])

    def stop_a_rerun(self, send):
        """Starts a rerun of two configurations side by side on a fake a2a that hangs, stops it
        with `send(process)` once both runs have started, and returns (exit status, last line
        of stderr, the runs' pids)."""
        hang = os.path.join(self.work.name, "hang")
        os.makedirs(hang)
        out = os.path.join(self.work.name, "report.md")
        proc = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "bench", "validation.py"), "--a2a", self.a2a,
             "--cache", self.cache, "--quick", "--only", "trend-vendor-fugaku", "--jobs", "2",
             "--out", out], env=dict(os.environ, FAKE_A2A_HANG=hang), stderr=subprocess.PIPE,
            text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while len(os.listdir(hang)) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            runs = [int(pid) for pid in os.listdir(hang)]
            self.assertEqual(len(runs), 2, "the two runs did not start")
            send(proc)
            _, stderr = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.assertFalse(os.path.exists(out), "a report was written")
        self.assertEqual(os.listdir(self.cache), [])
        return proc.returncode, stderr.strip().splitlines()[-1], runs

    def assert_gone(self, pids):
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    state = f.read().rpartition(")")[2].split()[0]
            except FileNotFoundError:
                continue
            self.assertEqual(state, "Z", f"a2a run {pid} is still running")

    def test_sigterm_ends_the_runs_it_started(self):
        # A SIGTERM (a scheduler, pkill) reaches validation.py alone: it must end its runs, not
        # leave them running for hours.
        status, said, runs = self.stop_a_rerun(lambda proc: proc.terminate())
        self.assert_gone(runs)
        self.assertEqual(status, 128 + signal.SIGTERM)
        self.assertEqual(said, "validation.py: stopped by SIGTERM: the runs going on were ended "
                               "and not cached, no report written (run again to go on)")

    def test_ctrl_c_ends_the_runs_now(self):
        # Ctrl-C reaches the whole process group; a2a run would finish its configuration first
        # (minutes to hours at the papers' P), so validation.py ends it.
        status, said, runs = self.stop_a_rerun(lambda proc: os.killpg(proc.pid, signal.SIGINT))
        self.assert_gone(runs)
        self.assertEqual(status, 128 + signal.SIGINT)
        self.assertIn("stopped by SIGINT", said)

    def test_a_trial_file_the_preset_takes_keeps_its_predictions(self):
        preset = os.path.join(ROOT, "platforms", "presets", "polaris.yaml")
        same, other = (os.path.join(self.work.name, name) for name in ("same.yaml", "other.yaml"))
        shutil.copy(preset, same)
        with open(preset) as f, open(other, "w") as g:
            g.write(f.read() + "# another model\n")
        try:
            for trial in (same, other):
                validation.TRIAL_PRESETS["polaris"] = trial
                self.binary = {"polaris": validation.model_key("polaris")}
                self.simulate(["vendor"])
            del validation.TRIAL_PRESETS["polaris"]
            self.binary = {"polaris": validation.model_key("polaris")}
            # The preset's run finds the byte-identical trial's prediction; the other file's is
            # another model's.
            self.assertEqual(self.simulate(["vendor"]), {"vendor": 0.005})
            self.assertEqual(self.runs(), ["vendor", "vendor"])
            self.assertEqual(len(os.listdir(self.cache)), 2)
        finally:
            validation.TRIAL_PRESETS.clear()

    def test_prune_keeps_exactly_what_the_sources_now_read(self):
        self.simulate(["vendor"], ranks_per_node=4)
        validation.simulate(self.a2a, "theta", 64, "uniform:max=16", ["vendor"], self.cache,
                            self.binary)
        # Not cache entries: left whatever they hold.
        for name, text in (("notes.json", "{}"), ("0123456789abcdef0123.json", "not json")):
            with open(os.path.join(self.cache, name), "w") as f:
                f.write(text)
        self.assertEqual(validation.prune(self.cache, self.binary), 0)
        self.binary = dict(self.binary, polaris="changed sources")
        self.assertEqual(validation.prune(self.cache, self.binary), 1)
        entries = []
        for name in sorted(os.listdir(self.cache)):
            with open(os.path.join(self.cache, name)) as f:
                text = f.read()
            entries.append(json.loads(text).get("platform") if text.startswith("{") else text)
        self.assertEqual(sorted(map(str, entries)), ["None", "not json", "theta"])
        # The pruned entry is simulated again; theta's is still read.
        self.simulate(["vendor"], ranks_per_node=4)
        self.assertEqual(self.runs(), ["vendor q=4", "vendor", "vendor q=4"])

    def test_a_partly_simulated_grid_is_not_judged(self):
        c = claim("best_param", best_of("parlogna", ["parlogna:radix=2", "parlogna:radix=4"]),
                  measured=2, param="radix")
        with self.assertRaises(Refused):
            evaluate(c, {"parlogna:radix=4": 0.004})


class Selection(unittest.TestCase):
    def test_a_claim_and_its_parts(self):
        self.assertTrue(validation.claim_matches("f25-12", "f25-12"))
        self.assertTrue(validation.claim_matches("f25-12-polaris", "f25-12"))
        self.assertFalse(validation.claim_matches("f25-120", "f25-12"))

    def test_a_claim_across_sizes_reads_one_group_per_size(self):
        c = next(c for c in validation.claims() if c["id"] == "f25-18-polaris")
        self.assertEqual(validation.claim_keys(c),
                         [("polaris", 4096, f"uniform:max={s}", 0) for s in (16, 8192, 16384)])

    def test_unknown_claim_or_jobs_refused_in_one_line(self):
        script = os.path.join(ROOT, "bench", "validation.py")
        for args, said in ((["--only", "f99"], "--only f99: no such claim"),
                           (["--jobs", "0"], "--jobs 0: must be at least 1")):
            proc = subprocess.run([sys.executable, script, "--cached-only"] + args,
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, args)
            self.assertIn(said, proc.stderr.strip().splitlines()[-1])

    def test_a_machine_selects_its_presets_from_the_command_line(self):
        script = os.path.join(ROOT, "bench", "validation.py")
        proc = subprocess.run([sys.executable, script, "--cached-only", "--platform", "fugaku",
                               "--only", "imb110592-256-vendor"], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("| imb110592-256-vendor |", proc.stdout)

    def test_prune_from_the_command_line(self):
        script = os.path.join(ROOT, "bench", "validation.py")
        binary = {p: validation.model_key(p) for p in validation.VENDOR}
        with tempfile.TemporaryDirectory() as cache:
            entry = {"platform": "fugaku", "ranks": 16, "workload": "constant:size=16",
                     "configuration": "vendor", "seconds": 1.0, "ranks_per_node": 1}
            readable = validation.cache_path(cache, "fugaku", 16, "constant:size=16", "vendor",
                                             binary, 1)
            stale = validation.cache_path(cache, "fugaku", 16, "constant:size=16", "vendor",
                                          dict(binary, fugaku="older sources"), 1)
            for path in (readable, stale):
                with open(path, "w") as f:
                    json.dump(entry, f)
            proc = subprocess.run([sys.executable, script, "--cache", cache, "--prune",
                                   "--cached-only", "--only", "imb16-16-vendor"],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("pruned 1 predictions", proc.stderr)
            self.assertEqual(os.listdir(cache), [os.path.basename(readable)])

    def test_a_machine_selects_its_presets(self):
        full = dict(claim("time", "vendor"), platform="fugaku_full")
        self.assertTrue(validation.selected_machine(full, ["fugaku"]))
        self.assertTrue(validation.selected_machine(full, ["fugaku_full"]))
        self.assertFalse(validation.selected_machine(full, ["polaris"]))
        self.assertFalse(validation.selected_machine(claim("time", "vendor"), ["fugaku"]))

    def test_prune_without_a_cache_refused(self):
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "validation.py"),
                               "--prune", "--cached-only"], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--prune: needs --cache DIR", proc.stderr.strip().splitlines()[-1])


class CarriedRows(unittest.TestCase):
    """--carry REPORT: the claims selected are judged on this run's predictions, every other row
    (and every selected claim not simulated) is the report's own, and the summary counts them
    all. The predictions are seeded into a cache, so nothing is simulated."""

    PUBLISHED = os.path.join(ROOT, "docs", "validation.md")
    SCRIPT = os.path.join(ROOT, "bench", "validation.py")

    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.cache = self.work.name
        with open(self.PUBLISHED) as f:
            self.before = f.read().splitlines()
        # f22-12-256 predicted: padded Bruck 1 ms, two-phase Bruck 2 ms (a 2x lead).
        for spec, seconds in (("padded_bruck", 1e-3), ("two_phase_bruck", 2e-3)):
            self.seed("theta", 256, "uniform:max=7,elem=1", spec, seconds)

    def tearDown(self):
        self.work.cleanup()

    def seed(self, platform, ranks, workload, spec, seconds):
        binary = {p: validation.model_key(p) for p in validation.VENDOR}
        with open(validation.cache_path(self.cache, platform, ranks, workload, spec, binary),
                  "w") as f:
            json.dump({"platform": platform, "ranks": ranks, "workload": workload,
                       "configuration": spec, "seconds": seconds}, f)

    def run_script(self, *args):
        proc = subprocess.run([sys.executable, self.SCRIPT, "--cached-only", "--cache",
                               self.cache] + list(args), capture_output=True, text=True)
        return proc.returncode, proc.stdout.splitlines(), proc.stderr

    @staticmethod
    def row(lines, cid):
        return next(line for line in lines if line.startswith(f"| {cid} |"))

    @staticmethod
    def summary(lines, start):
        return next(line for line in lines if line.startswith(start))

    def test_rows_and_barrier_table_carried_from_the_published_report(self):
        code, after, err = self.run_script("--only", "f22-12", "--carry", self.PUBLISHED)
        self.assertEqual(code, 0, err)
        rows = [line for line in self.before if validation.claim_rows([line])
                and not line.startswith("| f22-12-256 |")]
        self.assertGreater(len(rows), 100)
        for line in rows:
            self.assertEqual(after.count(line), 1, line)
        self.assertEqual(len([line for line in after if validation.claim_rows([line])]),
                         len(rows) + 1)
        # The rows keep the order of the claims.
        ids = [line.split("|")[1].strip() for line in after if validation.claim_rows([line])]
        self.assertEqual(ids, [c["id"] for c in validation.claims()])
        self.assertIn("| 2x | padded_bruck vs two_phase_bruck | ok |", self.row(after, "f22-12-256"))
        table = validation.carried_barrier(self.before)
        self.assertGreater(len(table), 5)
        start = after.index(table[1])
        self.assertEqual(after[start - 1:start + len(table) - 1], table)
        # The summary counts the carried rows as the report did: the same misses, the same
        # median time error (the worst factor may move in its third digit: a carried time is
        # read back to its printed three digits).
        self.assertEqual(self.summary(after, "Claims simulated:").split(";")[1:],
                         self.summary(self.before, "Claims simulated:").split(";")[1:])
        self.assertEqual(self.summary(after, "Validation times").split("; worst")[0],
                         self.summary(self.before, "Validation times").split("; worst")[0])
        judged = self.summary(after, validation.JUDGED)
        self.assertIn(": 1 claim (f22-12-256). ", judged)
        self.assertIn(f"carried unchanged from {self.PUBLISHED} as it was", judged)
        self.assertIn("2 of them selected but not simulated (f22-12-1024, f22-12-4096)", judged)
        self.assertIn("; so is the barrier table.", judged)

    def test_a_report_remade_twice_keeps_where_its_rows_came_from(self):
        first = os.path.join(self.work.name, "first.md")
        code, _, err = self.run_script("--only", "f22-12", "--carry", self.PUBLISHED,
                                       "--out", first)
        self.assertEqual(code, 0, err)
        code, lines, err = self.run_script("--only", "f22-12-256", "--carry", first)
        self.assertEqual(code, 0, err)
        judged = [line for line in lines if line.startswith(validation.JUDGED)]
        before = [line for line in lines if line.startswith(validation.BEFORE)]
        self.assertEqual(len(judged), 1)
        self.assertIn(f"carried unchanged from {first} as it was", judged[0])
        self.assertTrue(before, lines[-3:])
        self.assertIn("1 claim (f22-12-256)", before[0])
        self.assertIn(f"carried unchanged from {self.PUBLISHED} as it was", before[0])

    def test_a_partly_remade_barrier_table_is_carried_whole(self):
        # One of the table's P predicted (P = 2,048 through logv-16-parlogna-radix's grid).
        for spec, seconds in (("parlogna:radix=2048,barrier=1", 0.1),
                              ("parlogna:radix=2048", 0.05)):
            self.seed("polaris", 2048, "uniform:max=16", spec, seconds)
        code, after, err = self.run_script("--only", "f22-12", "--only", "logv-16-parlogna",
                                           "--carry", self.PUBLISHED)
        self.assertEqual(code, 0, err)
        table = validation.carried_barrier(self.before)
        start = after.index(table[1])
        self.assertEqual(after[start - 1:start + len(table) - 1], table)

    def test_claims_beyond_max_ranks_are_carried(self):
        row = self.row(self.before, "f22-02")
        code, after, err = self.run_script("--platform", "theta", "--max-ranks", "1024",
                                           "--carry", self.PUBLISHED)
        self.assertEqual(code, 0, err)
        self.assertIn(row, after)  # P = 4,096: carried
        judged = self.summary(after, validation.JUDGED)
        self.assertIn("f22-12-256", judged)
        self.assertNotIn("f22-02", judged)

    def test_a_row_made_for_other_measurements_is_refused(self):
        stale = os.path.join(self.work.name, "stale.md")
        with open(stale, "w") as f:
            f.write("\n".join(line.replace("| 51.8 ms | 39.4 ms |", "| 50 ms | 39.4 ms |")
                              for line in self.before) + "\n")
        code, _, err = self.run_script("--only", "f22-12", "--carry", stale)
        self.assertEqual(code, 2)
        self.assertEqual(err.strip().splitlines()[-1],
                         f"validation.py: error: --carry {stale}: time-1: its carried row is not "
                         "the claim as it is now (measured value, role, kind or layout changed): "
                         "select it to simulate it again")

    def test_carry_refused_when_max_ranks_leaves_nothing(self):
        code, _, err = self.run_script("--only", "f22-02", "--max-ranks", "1024", "--carry",
                                       self.PUBLISHED)
        self.assertEqual(code, 2)
        self.assertIn("no claim selected within --max-ranks 1024", err.strip().splitlines()[-1])

    def test_carry_refused_with_a_trial_or_quick(self):
        trial = os.path.join(ROOT, "platforms", "presets", "theta.yaml")
        for args, said in ((["--only", "f22-12", "--preset", f"theta={trial}"],
                            "not with --preset"),
                           (["--quick", "--only", "trend-radix-polaris"], "not with --quick")):
            code, _, err = self.run_script(*args, "--carry", self.PUBLISHED)
            self.assertEqual(code, 2, args)
            self.assertIn(said, err.strip().splitlines()[-1])

    def test_a_carried_time_is_read_back(self):
        c = next(c for c in validation.claims() if c["id"] == "time-1")
        line = ("| time-1 | validation | polaris | 8192 | uniform:max=16 | vendor | 51.8 ms | "
                "39.4 ms | vendor | ok |  |")
        row, outcome = validation.carried_row(c, [line])
        self.assertEqual(row, line)
        self.assertEqual((outcome["outside"], outcome["ok"]), (None, True))
        self.assertAlmostEqual(outcome["error"][1], 39.4 / 51.8)
        missing, nothing = validation.carried_row(c, [])
        self.assertIn("| not run | not in the carried report |", missing)
        self.assertIsNone(nothing)


class ClaimWorkloads(unittest.TestCase):
    def test_every_claim_sends_at_least_one_element_somewhere(self):
        # uniform:max=4 with the default 8-byte elements is all empty blocks (stop 64's first
        # f22-12): a claim's blocks must be able to hold one element.
        import re as regex
        for c in validation.claims():
            for key in validation.claim_keys(c):
                workload = key[2]
                largest = regex.search(r"(?:max|size)=(\d+)", workload)
                elem = regex.search(r"elem=(\d+)", workload)
                if largest:
                    self.assertGreaterEqual(int(largest.group(1)) // int(elem.group(1) if elem
                                                                         else 8), 1,
                                            (c["id"], workload))


class GeneratedReport(unittest.TestCase):
    def test_the_report_begins_with_the_scripts_text(self):
        # docs/validation.md is generated: its prose is HEADER, with the command of its line 3, so
        # an edit to one and not the other is caught here (the rows need the simulations).
        with open(os.path.join(ROOT, "docs", "validation.md")) as f:
            report = f.read()
        command = report.splitlines()[2].split("`")[1]
        self.assertTrue(report.startswith(validation.HEADER.format(command=command)))


class UnknownKind(unittest.TestCase):
    def test_refused_loudly(self):
        with self.assertRaises(ValueError):
            evaluate(claim("median", "vendor"), {"vendor": 1.0})


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
