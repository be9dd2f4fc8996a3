"""Tests of the memplan Python module, as an ExecuTorch user would call it."""

import copy
import glob
import os
import unittest

import memplan


def valid_plan():
    return {
        "format": "memplan.plan.v1",
        "buffers": [
            {"mem_id": 1, "size": 128, "device": "cpu"},
            {"mem_id": 2, "size": 256, "device": "cuda:0"},
        ],
        "allocations": [
            {"id": "x", "mem_id": 1, "offset": 0, "size": 64, "first": 0,
             "last": 1, "device": "cpu", "alignment": 16},
            {"id": "y", "mem_id": 1, "offset": 64, "size": 64, "first": 1,
             "last": 3, "device": "cpu", "alignment": 16},
            {"id": "h", "mem_id": 2, "offset": 0, "size": 256, "first": 0,
             "last": 3, "device": "cuda:0"},
            {"id": "hv", "kind": "view", "alias_of": "h", "mem_id": 2,
             "offset": 128, "size": 128, "first": 2, "last": 3,
             "device": "cuda:0"},
        ],
    }


def shared_programs():
    folder = os.environ.get("MEMPLAN_SHARED_PTE", "")
    return sorted(glob.glob(os.path.join(folder, "*.pte")) +
                  glob.glob(os.path.join(folder, "*.bpte")))


class VerifyPlanTest(unittest.TestCase):

    def test_valid_plan(self):
        verdict = memplan.verify_plan(valid_plan())
        self.assertTrue(verdict.ok, verdict.text())
        self.assertTrue(bool(verdict))
        (report,) = verdict.reports
        self.assertEqual(report.total_violations, 0)
        self.assertEqual([b.mem_id for b in report.buffers], [1, 2])
        self.assertEqual(report.buffers[1].device, "cuda:0")
        # x and y are live together at time 1: 128 bytes.
        self.assertEqual(report.buffers[0].lower_bound, 128)

    def test_overlap_carries_ids_buffer_and_ranges(self):
        plan = valid_plan()
        plan["allocations"][1]["offset"] = 32  # y [1,3] now meets x at 1.
        verdict = memplan.verify_plan(plan)
        self.assertFalse(verdict.ok)
        (v,) = verdict.violations
        self.assertEqual(v.code, "overlap")
        self.assertEqual(v.allocation_ids, ["x", "y"])
        self.assertEqual(v.mem_id, 1)
        self.assertEqual(v.bytes, (32, 64))
        self.assertEqual(v.lifetime, (1, 1))
        self.assertIn("overlap: x [0,1] bytes [0,64)", v.message)
        self.assertEqual(verdict.reports[0].counts["overlap"], 1)

    def test_view_on_another_device(self):
        plan = valid_plan()
        plan["allocations"][3]["device"] = "cpu"
        verdict = memplan.verify_plan(plan)
        codes = sorted(v.code for v in verdict.violations)
        self.assertEqual(codes, ["cross_device", "device_info"])
        for v in verdict.violations:
            self.assertEqual(v.allocation_ids[0], "hv")

    def test_json_text_and_align(self):
        import json
        verdict = memplan.verify_plan(json.dumps(valid_plan()), align=128)
        # x at 0 and h at 0 are fine; y at 64 is not a multiple of 128
        # (hv at 128 is).
        self.assertEqual([(v.code, v.allocation_ids) for v in
                          verdict.violations], [("alignment", ["y"])])

    def test_unreadable_plan_raises_with_the_readers_message(self):
        plan = valid_plan()
        plan["allocations"][0]["colour"] = "red"
        with self.assertRaises(memplan.Error) as caught:
            memplan.verify_plan(plan)
        self.assertIn('unknown member "colour"', str(caught.exception))
        self.assertIsInstance(caught.exception, ValueError)
        broken = copy.deepcopy(valid_plan())
        del broken["buffers"]
        with self.assertRaisesRegex(memplan.Error, "lacks \"buffers\""):
            memplan.verify_plan(broken)

    def test_memory_trace(self):
        def event(name, offset, size, step):
            return {"name": name, "cat": "memory_allocation", "ph": "X",
                    "ts": offset, "dur": size, "pid": 1, "tid": step,
                    "args": {"bytes": size}}
        trace = {"traceEvents": [event("a", 0, 32, 0), event("a", 0, 32, 1),
                                 event("b", 16, 32, 1)]}
        verdict = memplan.verify_plan(trace)
        (v,) = verdict.violations
        self.assertEqual((v.code, v.allocation_ids), ("overlap", ["a", "b"]))


class PlanTest(unittest.TestCase):
    PROBLEM = [
        {"id": "a", "lower": 0, "upper": 3, "size": 48, "alignment": 16},
        {"id": "b", "lower": 1, "upper": 4, "size": 32, "alignment": 16},
        {"id": "c", "lower": 3, "upper": 6, "size": 64},
        {"id": "d", "lower": 4, "upper": 6, "size": 16},
    ]

    def test_every_algorithm_gives_a_plan_the_oracle_accepts(self):
        for algo in memplan.ALGORITHMS:
            solution = memplan.plan(self.PROBLEM, algo=algo)
            self.assertEqual(len(solution["offsets"]), 4)
            self.assertGreaterEqual(solution["height"], 80, algo)
            plan = {
                "buffers": [{"mem_id": 1, "size": solution["height"]}],
                "allocations": [
                    {"id": row["id"], "mem_id": 1,
                     "offset": solution["offsets_by_id"][row["id"]],
                     "size": row["size"], "first": row["lower"],
                     "last": row["upper"] - 1, "device": "cpu",
                     "alignment": row.get("alignment", 1)}
                    for row in self.PROBLEM],
            }
            verdict = memplan.verify_plan(plan)
            self.assertTrue(verdict.ok, algo + "\n" + verdict.text())

    def test_exact_proves_optimality_and_csv_text_works(self):
        solution = memplan.plan("id,lower,upper,size\nx,0,2,8\ny,1,3,8\n",
                                algo="exact")
        self.assertEqual(solution["height"], 16)
        self.assertTrue(solution["proven_optimal"])

    def test_bad_problems_raise(self):
        with self.assertRaisesRegex(memplan.Error, r"buffers\[0\] \('a'\)"):
            memplan.plan([{"id": "a", "lower": 2, "upper": 2, "size": 8}])
        with self.assertRaisesRegex(memplan.Error, "no_such"):
            memplan.plan(self.PROBLEM, algo="no_such")
        with self.assertRaisesRegex(KeyError, "problem\\[0\\] lacks 'upper'"):
            memplan.plan([{"id": "a", "lower": 0, "size": 8}])
        with self.assertRaisesRegex(ValueError, "align = 3"):
            memplan.plan(self.PROBLEM, align=3)


class ProgramTest(unittest.TestCase):

    def test_garbage_is_an_error(self):
        # The message is the Error's ToString(): its code, then what broke.
        refused = r"^invalid_program: file_identifier = \"a pr\""
        with self.assertRaisesRegex(memplan.Error, refused):
            memplan.verify_program(b"not a program")
        with self.assertRaisesRegex(memplan.Error, refused):
            memplan.load_check(b"not a program")

    def test_real_programs_verify_and_load(self):
        files = shared_programs()
        if not files:
            self.skipTest("no ../shared/data/pte here")
        for path in files:
            with open(path, "rb") as f:
                data = f.read()
            verdict = memplan.verify_program(data)
            self.assertTrue(verdict.ok, path + "\n" + verdict.text())
            self.assertTrue(all(r.name for r in verdict.reports), path)
            loads = memplan.load_check(data, use_gpu=False)
            self.assertTrue(loads, path)
            for load in loads:
                self.assertTrue(load.ok, "%s:%s: %s" %
                                (path, load.method, load.error))
                self.assertTrue(load.allocators.startswith("cpu"))

    def test_a_stricter_alignment_is_reported_with_ids(self):
        files = [f for f in shared_programs() if f.endswith(".pte")]
        if not files:
            self.skipTest("no ../shared/data/pte here")
        found = False
        for path in files:
            with open(path, "rb") as f:
                verdict = memplan.verify_program(f.read(), align=1 << 20)
            for v in verdict.violations:
                self.assertEqual(v.code, "alignment")
                self.assertTrue(v.allocation_ids[0].startswith("v"))
                self.assertIsNotNone(v.bytes)
                found = True
        # Some tensor of some program sits off a 1 MiB boundary.
        self.assertTrue(found)

    def test_unknown_method_is_an_error(self):
        files = [f for f in shared_programs() if f.endswith(".pte")]
        if not files:
            self.skipTest("no ../shared/data/pte here")
        with open(files[0], "rb") as f:
            data = f.read()
        with self.assertRaisesRegex(memplan.Error,
                                    r"^not_found: .*no_such_method"):
            memplan.verify_program(data, method="no_such_method")


if __name__ == "__main__":
    unittest.main()
