#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit test of benchstat.py (ctest: bench.benchstat): perftest and iperf3
output parsed into the right column, and the goals table's medians,
spreads and verdicts, without a VM."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchstat as bs  # noqa: E402

RULE = "-" * 87

# The shape of perftest 4.5's client output: a header block, the address
# lines (GIDs start with "GID:", not a digit), the table, a rule.
BW_OUT = f"""{RULE}
                    RDMA_Write BW Test
 Dual-port       : OFF		Device         : mrc1
 Number of qps   : 1		Transport type : IB
 TX depth        : 128
 Mtu             : 1024[B]
 GID index       : 1
{RULE}
 local address: LID 0000 QPN 0x0011 PSN 0x2ba0b1 RKey 0x000123 VAddr 0x007f1234567000
 GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:02
 remote address: LID 0000 QPN 0x0012 PSN 0x1234 RKey 0x000456 VAddr 0x007f7654321000
 GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:01
{RULE}
 #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
 65536      300              31.07              18.42  		   0.000295
{RULE}
"""

LAT_OUT = f"""{RULE}
                    RDMA_Write Latency Test
 Number of qps   : 1		Transport type : IB
{RULE}
 local address: LID 0000 QPN 0x0011 PSN 0x2ba0b1 RKey 0x000123 VAddr 0x007f1234567000
{RULE}
 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] 
 2       1000          38.10          512.33       45.20     	       50.11        	20.33   		120.50    		512.33  
{RULE}
"""

SWEEP_LAT = LAT_OUT.replace(
    " 2       1000          38.10",
    " 4       30          39.00          90.00       46.00     	       50.00        	2.00   		80.00    		90.00\n"
    " 2       30          38.10")

# get_cpu_mhz() returned 0: the message on stderr, 0.00 (bw) or inf (lat).
CALIB = "Correlation coefficient r^2: 0.412 < 0.9\n"
BW_ZERO = CALIB + BW_OUT.replace("31.07              18.42", "0.00              0.00")
LAT_INF = CALIB + LAT_OUT.replace("45.20", "inf").replace("120.50", "inf")


class Parse(unittest.TestCase):
    def test_bw_average_not_peak(self):
        self.assertEqual(bs.parse_bw(BW_OUT), 18.42)

    def test_lat_typical_and_99(self):
        self.assertEqual(bs.parse_lat(LAT_OUT), (45.20, 120.50))

    def test_calibration_failure_is_not_a_result(self):
        for f, text in ((bs.parse_bw, BW_ZERO), (bs.parse_lat, LAT_INF)):
            with self.assertRaisesRegex(bs.ParseError, "calibration"):
                f(text)
        # Even without the message, 0.00 MB/s is no measurement.
        with self.assertRaisesRegex(bs.ParseError, "calibration"):
            bs.parse_bw(BW_ZERO.replace(CALIB, ""))
        # The message with plausible figures still discards the run: its
        # clock is not the one the figures were computed with.
        with self.assertRaises(bs.ParseError):
            bs.parse_bw(CALIB + BW_OUT)

    def test_no_table(self):
        with self.assertRaisesRegex(bs.ParseError, "no result table"):
            bs.parse_bw(" Couldn't connect to 10.0.0.1:18516\n Unable to open file descriptor for socket connection")
        with self.assertRaisesRegex(bs.ParseError, "no result table"):
            bs.parse_lat(BW_OUT)

    def test_sweep(self):
        self.assertEqual(bs.parse_sweep(SWEEP_LAT, "sweep-lat"), [(4, 46.0), (2, 45.2)])
        self.assertEqual(bs.parse_sweep(BW_OUT, "sweep-bw"), [(65536, 18.42)])

    def test_iperf3(self):
        self.assertAlmostEqual(bs.parse_iperf3('{"end": {"sum_received": {"bits_per_second": 1677721600}}}'), 200.0)
        with self.assertRaises(bs.ParseError):
            bs.parse_iperf3('{"error": "unable to connect to server"}')

    def test_run_bytes(self):
        self.assertEqual(bs.run_bytes(["-s", "65536", "-q", "16", "-n", "20"]), 65536 * 16 * 20)


class Verdict(unittest.TestCase):
    def test_higher(self):
        self.assertEqual(bs.verdict([1.25, 1.3, 1.2], "higher", 1.2), "met")
        self.assertEqual(bs.verdict([1.1, 1.19], "higher", 1.2), "not met")
        self.assertEqual(bs.verdict([1.1, 1.3], "higher", 1.2), "not decided")

    def test_lower(self):
        self.assertEqual(bs.verdict([0.8, 0.9], "lower", 0.9), "met")
        self.assertEqual(bs.verdict([0.95, 1.4], "lower", 0.9), "not met")
        self.assertEqual(bs.verdict([0.85, 0.95], "lower", 0.9), "not decided")


def rows(metric, rxe, mrc, stack_a="rxe", stack_b="mrc"):
    out = []
    for r, (a, b) in enumerate(zip(rxe, mrc), 1):
        out.append(f"{r}\t{stack_a}\t{metric}\t{a}\t{'' if a != 'FAILED' else 'timed out'}")
        out.append(f"{r}\t{stack_b}\t{metric}\t{b}\t{'' if b != 'FAILED' else 'exit status 1'}")
    return out


class Report(unittest.TestCase):
    def goal(self, metric):
        return next(g for g in bs.goals() if g.num[1] == metric and g.num[0] == "mrc"
                    and g.den[0] == "rxe")

    def test_median_of_ratios_not_ratio_of_medians(self):
        # Per-round ratios 2.0, 0.5, 1.0, 1.5, 1.1: median 1.1; the ratio of
        # the medians (12/10) would be 1.2.
        res = bs.read_results(rows("write_bw_64k", [10, 20, 10, 10, 10], [20, 10, 10, 15, 11]))
        mn, md, med, lo, hi, n, v = bs.evaluate(res, self.goal("write_bw_64k"), 5)
        self.assertEqual((mn, md, n), (11, 10, 5))
        self.assertAlmostEqual(med, 1.1)
        self.assertEqual((lo, hi, v), (0.5, 2.0, "not decided"))

    def test_failed_rounds_are_left_out_until_too_few(self):
        res = bs.read_results(rows("write_bw_64k", [10, "FAILED", 10, 10, 10], [13, 13, "FAILED", 13, 13]))
        *_, n, v = bs.evaluate(res, self.goal("write_bw_64k"), 5)
        self.assertEqual((n, v), (3, "met"))
        res = bs.read_results(rows("write_bw_64k", [10, "FAILED", 10, "FAILED", 10], [13, 13, "FAILED", 13, 13]))
        *_, n, v = bs.evaluate(res, self.goal("write_bw_64k"), 5)
        self.assertEqual(n, 2)
        self.assertTrue(v.startswith("FAILED (round 2: rxe: timed out"), v)

    def test_missing_stack_is_failed(self):
        res = bs.read_results(rows("write_lat_2:typ", [40, 41, 42], [30, 31, 32])[::2])
        *_, v = bs.evaluate(res, self.goal("write_lat_2:typ"), 3)
        self.assertEqual(v, "FAILED (round 1: mrc not run)")

    def test_latency_goal(self):
        res = bs.read_results(rows("write_lat_2:p99", [100, 100, 100], [80, 85, 89]))
        *_, v = bs.evaluate(res, self.goal("write_lat_2:p99"), 3)
        self.assertEqual(v, "met")

    def test_ceiling_and_loss_bases(self):
        lines = rows("iperf3", [200, 200, 200], [0, 0, 0], "tcp", "none")
        lines += rows("write_bw_1m", [50, 50, 50], [150, 140, 160])
        lines += rows("write_bw_64k", [1, 1, 1], [100, 100, 100])
        lines += rows("loss_write_bw_64k", [1, 1, 1], [95, 91, 80])
        res = bs.read_results(lines)
        by_label = {g.label.split(":")[0]: g for g in bs.goals()}
        *_, v = bs.evaluate(res, by_label["ceiling"], 3)
        self.assertEqual(v, "met")   # 0.75, 0.70, 0.80
        med = bs.evaluate(res, by_label["1% loss"], 3)[2]
        self.assertAlmostEqual(med, 0.91)
        self.assertEqual(bs.evaluate(res, by_label["1% loss"], 3)[-1], "not decided")

    def test_every_goal_has_a_row_and_the_cli_works(self):
        lines = rows("write_bw_64k", [10, 10, 10, 10, 10], [13, 13, 13, 13, 13])
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            p = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "benchstat.py"),
                                "report", f.name, "--rounds", "5"], capture_output=True, text=True, check=True)
        finally:
            os.unlink(f.name)
        table = p.stdout.splitlines()
        goals = bs.goals()
        self.assertEqual(len([t for t in table[2:] if t and not t.startswith("verdicts")]), len(goals))
        row = next(t for t in table if t.startswith("ib_write_bw 64 KiB"))
        self.assertIn("1.30   1.30-1.30", row)
        self.assertTrue(row.endswith(" met"), row)
        self.assertIn(f"met 1, FAILED {len(goals) - 1}", table[-1])

    def test_plan_covers_the_issue(self):
        keys = {k for k, *_ in bs.plan()}
        for op in ("write", "send", "read"):
            for s in ("4k", "64k", "1m"):
                self.assertIn(f"{op}_bw_{s}", keys)
            for s in ("2", "4k"):
                self.assertIn(f"{op}_lat_{s}", keys)
        self.assertTrue({"write_bw_q16", "write_bw_q128", "loss_write_bw_64k"} <= keys)
        # Every goal of the full plan compares something the plan runs.
        for g in bs.goals():
            for stack, metric in (g.num, g.den):
                self.assertTrue(stack == "tcp" or metric.split(":")[0] in keys, metric)


if __name__ == "__main__":
    unittest.main()
