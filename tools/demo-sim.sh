#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Second half of "make demo": traffic through a failure at cluster scale.
# The simulator runs the very same engine (net/mrc/proto) as mrc.ko on 128
# hosts with 4 planes; plane 2 dies mid-run. The same scenario is run with
# the single-path go-back-N baseline (RoCE-like, pinned by ECMP), oblivious
# spraying, and MRC, and the outcome is printed side by side.
set -euo pipefail
cd "$(dirname "$0")/.."

scn=tools/sim/scenarios/plane-down.scn
out=${MRC_DEMO_OUT:-build/demo}
mkdir -p "$out"

echo "== step: simulated fabric: 128 hosts, 4 planes, leaf-spine, 100G links"
echo "         permutation traffic, 16 MB per flow, plane 2 fails at t=150 us"
for t in gbn spray mrc; do
	echo "   running transport=$t ..."
	build/bin/mrcsim "$scn" --set transport="$t" -q --out "$out/$t"
done

echo "== result (throughput as a fraction of the host's 4-plane line rate)"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
names = {"gbn": "single-path go-back-N", "spray": "oblivious spraying", "mrc": "MRC (engine)"}
print(f"   {'transport':24} {'done':>8} {'failed':>7} {'mean':>6} {'p1':>6} {'p99 FCT us':>11} {'retx':>7}")
for t in ("gbn", "spray", "mrc"):
    s = json.load(open(f"{out}/{t}/summary.json"))
    tp = s["throughput"]
    print(f"   {names[t]:24} {s['completed']:>4}/{s['flows']:<3} {s['failed']:>7} "
          f"{tp['mean']:>6.3f} {tp['p1']:>6.3f} {s['fct_us']['p99']:>11.1f} {s['retransmissions']:>7}")
PY
echo "   per-flow CSV, time series and summaries: $out/{gbn,spray,mrc}/"
echo "   plot the failover timeline: tools/sim/scripts/plot.sh timeline $out/plane-down.png $out/mrc"
