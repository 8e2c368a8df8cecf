#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The judging half of tools/bench/verbs-vs-rxe.sh, kept out of the shell so
that a unit test (tools/bench/test_benchstat.py, registered with ctest) can
catch a wrong parser or a wrong verdict without a VM.

  benchstat.py plan [--quick]       the runs of one round, one a line:
                                    KEY TOOL KIND ARGS...
  benchstat.py parse KIND FILE      one perftest output: "bw" prints the
                                    BW average (MB/s), "lat" prints
                                    t_typical and the 99% percentile
                                    (usec); "sweep-bw"/"sweep-lat" print
                                    "size value" rows.  Exit 1 with the
                                    reason on stdout when there is no
                                    usable number.
  benchstat.py iperf3 FILE          iperf3 -J output: MB/s received
  benchstat.py report RESULTS [--rounds N]
                                    the goals table from the rows the
                                    script wrote (see read_results)
"""
import re
import sys

# perftest's MB/s is 2^20 bytes per second (its BW columns divide by
# 0x100000); iperf3's bits per second are converted to the same unit.
MIB = 1 << 20

# Message sizes and iterations: each run moves 2-5 MB, a second or two
# of transfer under TCG on a loaded host (perftest's own start costs
# more), so that a round of every metric on both stacks stays within a
# few minutes.
SIZES = {"4k": (4096, 500), "64k": (65536, 64), "1m": (1048576, 5)}
LAT_SIZES = {"2": 2, "4k": 4096}
LAT_ITERS = 500
SIZE_NAMES = {"4k": "4 KiB", "64k": "64 KiB", "1m": "1 MiB"}


def plan(quick=False):
    """The runs of one round for one stack: (key, tool, kind, args).
    kind: bw, lat, or loss (bw under 1% netem loss)."""
    runs = []
    ops = ("write", "send", "read")
    bw_sizes = ("4k", "64k", "1m")
    lat_ops = ops
    if quick:
        ops, bw_sizes, lat_ops = ("write", "send"), ("64k", "1m"), ("write",)
    for op in ops:
        for s in bw_sizes:
            size, iters = SIZES[s]
            runs.append((f"{op}_bw_{s}", f"ib_{op}_bw", "bw",
                         ["-s", str(size), "-n", str(iters)]))
    if not quick:
        # -n is per QP: 16 x 5 messages of 64 KiB, 128 x 5 of 4 KiB
        # (perftest refuses fewer than 5).
        runs.append(("write_bw_q16", "ib_write_bw", "bw",
                     ["-s", "65536", "-q", "16", "-n", "5"]))
        runs.append(("write_bw_q128", "ib_write_bw", "bw",
                     ["-s", "4096", "-q", "128", "-n", "5"]))
    for op in lat_ops:
        for s, size in LAT_SIZES.items():
            if quick and s != "2":
                continue
            runs.append((f"{op}_lat_{s}", f"ib_{op}_lat", "lat",
                         ["-s", str(size), "-n", str(LAT_ITERS)]))
    size, iters = SIZES["64k"]
    runs.append(("loss_write_bw_64k", "ib_write_bw", "loss",
                 ["-s", str(size), "-n", str(iters)]))
    return runs


def run_bytes(args):
    """Payload bytes a bw run moves: size x iterations x QPs."""
    a = dict(zip(args[0::2], args[1::2]))
    return int(a.get("-s", 65536)) * int(a.get("-n", 1000)) * int(a.get("-q", 1))


class ParseError(Exception):
    pass


NUM = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def _calibration(text):
    # perftest's get_cpu_mhz() fits gettimeofday() against the TSC over 200
    # busy waits; a preempted sample makes r^2 < 0.9, it returns 0 MHz
    # and every figure of the run is 0 (or inf): not a measurement.
    if "Correlation coefficient" in text:
        return "perftest clock calibration failed (r^2 < 0.9: preempted while sampling)"
    return None


def _rows(text, header, ncols):
    """The numeric rows after the header line that contains HEADER."""
    rows, seen = [], False
    for line in text.splitlines():
        if header in line:
            seen = True
            continue
        f = line.split()
        if seen and len(f) >= ncols and f[0].isdigit():
            rows.append(f)
    return rows


def parse_bw(text):
    """BW average (MB/s) of a perftest bandwidth run's result row."""
    bad = _calibration(text)
    rows = _rows(text, "BW average", 4)
    if not rows:
        raise ParseError(bad or "no result table in the output")
    v = rows[0][3]
    if not NUM.match(v):
        raise ParseError(bad or f"BW average is not a number: {v!r}")
    if float(v) <= 0:
        raise ParseError(bad or "BW average 0.00: perftest clock calibration failed")
    if bad:
        raise ParseError(bad)
    return float(v)


def parse_lat(text):
    """(t_typical, 99% percentile) in usec of a perftest latency run."""
    bad = _calibration(text)
    rows = _rows(text, "t_typical", 8)
    if not rows:
        raise ParseError(bad or "no result table in the output")
    typ, p99 = rows[0][4], rows[0][7]
    for v in (typ, p99):
        if not NUM.match(v) or float(v) <= 0:
            raise ParseError(bad or f"latency is not a positive number: {v!r}")
    if bad:
        raise ParseError(bad)
    return float(typ), float(p99)


def parse_sweep(text, kind):
    """[(size, value)] of a -a run: BW average or t_typical."""
    if kind == "sweep-bw":
        rows, col = _rows(text, "BW average", 4), 3
    else:
        rows, col = _rows(text, "t_typical", 8), 4
    out = [(int(r[0]), float(r[col])) for r in rows if NUM.match(r[col])]
    if not out:
        raise ParseError(_calibration(text) or "no result table in the output")
    return out


def parse_iperf3(text):
    """MB/s (2^20) received, from iperf3 -J."""
    import json

    try:
        d = json.loads(text)
        bps = d["end"]["sum_received"]["bits_per_second"]
    except (ValueError, KeyError, TypeError) as e:
        raise ParseError(f"no iperf3 result: {e}") from None
    if bps <= 0:
        raise ParseError("iperf3 moved nothing")
    return bps / 8 / MIB


# --- results and goals --------------------------------------------------

def read_results(lines):
    """Rows "ROUND STACK METRIC VALUE [REASON...]" (tab-separated): VALUE
    a number or FAILED.  Returns {(stack, metric): {round: value or
    ("FAILED", reason)}}."""
    res = {}
    for line in lines:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 4:
            continue
        rnd, stack, metric, value = int(f[0]), f[1], f[2], f[3]
        reason = f[4] if len(f) > 4 else ""
        if NUM.match(value):
            v = float(value)
        else:
            v = ("FAILED", reason or value)
        res.setdefault((stack, metric), {})[rnd] = v
    return res


class Goal:
    """One row of the goals table: the per-round ratio NUM/DEN, where each
    is (stack, metric); better is "higher" (ratio >= bound) or "lower"
    (ratio <= bound)."""

    def __init__(self, label, num, den, better, bound):
        self.label, self.num, self.den = label, num, den
        self.better, self.bound = better, bound


def goals(quick=False):
    g = []
    keys = {k for k, _, _, _ in plan(quick)}

    def ratio(label, metric, better, bound):
        if metric.split(":")[0] in keys:
            g.append(Goal(label, ("mrc", metric), ("rxe", metric), better, bound))

    for op in ("write", "send", "read"):
        for s, bound in (("4k", 1.0), ("64k", 1.2), ("1m", 1.2)):
            ratio(f"ib_{op}_bw {SIZE_NAMES[s]}", f"{op}_bw_{s}", "higher", bound)
    ratio("ib_write_bw -q 16, 64 KiB", "write_bw_q16", "higher", 1.2)
    ratio("ib_write_bw -q 128, 4 KiB", "write_bw_q128", "higher", 1.2)
    for op in ("write", "send", "read"):
        for s, name in (("2", "2 B"), ("4k", "4 KiB")):
            ratio(f"ib_{op}_lat {name}, t_typical", f"{op}_lat_{s}:typ", "lower", 0.9)
            ratio(f"ib_{op}_lat {name}, t_99", f"{op}_lat_{s}:p99", "lower", 0.9)
    ratio("kernel CPU s per GB, ib_write_bw 64 KiB", "write_bw_64k:cpu", "lower", 0.8)
    ratio("kernel CPU s per GB, ib_write_bw 1 MiB", "write_bw_1m:cpu", "lower", 0.8)
    if "write_bw_1m" in keys:
        g.append(Goal("ceiling: mrc ib_write_bw 1 MiB / iperf3 TCP",
                      ("mrc", "write_bw_1m"), ("tcp", "iperf3"), "higher", 0.7))
    g.append(Goal("1% loss: mrc ib_write_bw 64 KiB / lossless",
                  ("mrc", "loss_write_bw_64k"), ("mrc", "write_bw_64k"), "higher", 0.9))
    return g


def verdict(ratios, better, bound):
    """"met" when every per-round ratio meets the bound, "not met" when none
    does, "not decided" when the spread (min..max) straddles it."""
    lo, hi = min(ratios), max(ratios)
    if better == "higher":
        ok, bad = lo >= bound, hi < bound
    else:
        ok, bad = hi <= bound, lo > bound
    return "met" if ok else "not met" if bad else "not decided"


def median(xs):
    import statistics

    return statistics.median(xs)


def min_valid(rounds):
    """Rounds that must give a ratio for a verdict: all of them up to 3,
    otherwise at least 3 (a median of fewer says nothing about spread)."""
    return min(rounds, 3)


def evaluate(res, goal, rounds):
    """(median num, median den, median ratio, lo, hi, n, verdict or FAILED
    reason) of one goal."""
    num = res.get(goal.num, {})
    den = res.get(goal.den, {})
    ratios, nums, dens, reasons = [], [], [], []
    for r in range(1, rounds + 1):
        a, b = num.get(r), den.get(r)
        for v, side in ((a, goal.num), (b, goal.den)):
            if v is None:
                reasons.append(f"round {r}: {side[0]} not run")
            elif isinstance(v, tuple):
                reasons.append(f"round {r}: {side[0]}: {v[1]}")
        if isinstance(a, float):
            nums.append(a)
        if isinstance(b, float):
            dens.append(b)
        if isinstance(a, float) and isinstance(b, float) and b > 0:
            ratios.append(a / b)
    mn = median(nums) if nums else None
    md = median(dens) if dens else None
    if len(ratios) < min_valid(rounds):
        why = reasons[0] if reasons else "no result"
        return mn, md, None, None, None, len(ratios), f"FAILED ({why})"
    v = verdict(ratios, goal.better, goal.bound)
    return mn, md, median(ratios), min(ratios), max(ratios), len(ratios), v


def fmt(v):
    if v is None:
        return "-"
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.2f}" if v >= 1 else f"{v:.3f}"


def report(res, rounds, quick=False):
    """The goals table as text lines."""
    out = [f"{'metric (mrc / base, per round)':<44} {'mrc':>8} {'base':>8} {'median':>6} {'spread':>11} "
           f"{'n':>2}  {'goal':<6} verdict",
           "-" * 100]
    counts = {}
    for g in goals(quick):
        mn, md, med, lo, hi, n, v = evaluate(res, g, rounds)
        goal = (">=" if g.better == "higher" else "<=") + f" {g.bound}"
        spread = "-" if lo is None else f"{lo:.2f}-{hi:.2f}"
        out.append(f"{g.label:<44} {fmt(mn):>8} {fmt(md):>8} "
                   f"{'-' if med is None else f'{med:.2f}':>6} {spread:>11} "
                   f"{n:>2}  {goal:<6} {v}")
        key = v.split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
    out.append("")
    out.append("verdicts: " + ", ".join(f"{k} {counts[k]}" for k in
                                         ("met", "not met", "not decided", "FAILED")
                                         if k in counts))
    return out


def _main(argv):
    if len(argv) >= 2 and argv[1] == "plan":
        for key, tool, kind, args in plan("--quick" in argv[2:]):
            print(key, tool, kind, *args)
        return 0
    if len(argv) == 4 and argv[1] == "parse":
        kind, path = argv[2], argv[3]
        with open(path, errors="replace") as f:
            text = f.read()
        try:
            if kind == "bw":
                print(f"{parse_bw(text):.2f}")
            elif kind == "lat":
                print("%.2f %.2f" % parse_lat(text))
            elif kind in ("sweep-bw", "sweep-lat"):
                for s, v in parse_sweep(text, kind):
                    print(s, v)
            else:
                print(f"unknown kind {kind}")
                return 2
        except ParseError as e:
            print(e)
            return 1
        return 0
    if len(argv) == 3 and argv[1] == "iperf3":
        with open(argv[2], errors="replace") as f:
            try:
                print(f"{parse_iperf3(f.read()):.2f}")
            except ParseError as e:
                print(e)
                return 1
        return 0
    if len(argv) >= 3 and argv[1] == "report":
        rounds, quick = 5, False
        rest = argv[3:]
        while rest:
            if rest[0] == "--rounds" and len(rest) > 1:
                rounds, rest = int(rest[1]), rest[2:]
            elif rest[0] == "--quick":
                quick, rest = True, rest[1:]
            else:
                print(f"benchstat: unknown argument {rest[0]}", file=sys.stderr)
                return 2
        with open(argv[2]) as f:
            res = read_results(f)
        print("\n".join(report(res, rounds, quick)))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
