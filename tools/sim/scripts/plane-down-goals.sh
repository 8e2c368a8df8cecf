#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Issue 18's plane-down row: 128 hosts on 4 planes (leaf-spine, 16 per
# leaf), a permutation of 16 MB flows, plane 2 down at 150 us
# (scenarios/plane-down.scn, ideal about 0.75).  Runs one simulation at a
# time (nice 19) and prints, per EV mode, the mean, min and p1 flow
# throughput (fraction of line rate) of every seed, then the mean of the
# seeds' means and the lowest min and p1.
#
#   plane-down-goals.sh [-b BUILD] [-o OUT] [-m "udp srv6"] [--set key=value]... [SEED...]
# Seeds default to 1..10, EV modes to udp (the row's figure; srv6 for
# comparison with -m "udp srv6").  Run directories go to OUT (default: a
# temporary directory, removed at the end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$root/build
out=
modes=udp
extra=()
seeds=()
while [ $# -gt 0 ]; do
	case $1 in
	-b) build=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-m) modes=$2; shift 2 ;;
	--set) extra+=(--set "$2"); shift 2 ;;
	-h|--help) sed -n '3,13p' "$0"; exit 0 ;;
	-*) echo "usage: $0 [-b BUILD] [-o OUT] [-m MODES] [--set k=v]... [SEED...]" >&2; exit 2 ;;
	*) seeds+=("$1"); shift ;;
	esac
done
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5 6 7 8 9 10)
sim=$build/bin/mrcsim
[ -x "$sim" ] || { echo "no $sim: build it first (cmake --build $build --target mrcsim)" >&2; exit 1; }
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
scn=$root/tools/sim/scenarios/plane-down.scn

printf '%-5s %5s %7s %7s %7s\n' mode seed mean min p1
for mode in $modes; do
	for s in "${seeds[@]}"; do
		d=$out/$mode-$s
		nice -n 19 "$sim" "$scn" --out "$d" --set transport=mrc \
			--set ev_mode="$mode" --set seed="$s" "${extra[@]}" -q
		python3 - "$d/summary.json" "$mode" "$s" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["throughput"]
print("%-5s %5s %7.3f %7.3f %7.3f" % (sys.argv[2], sys.argv[3], t["mean"], t["min"], t["p1"]))
PY
	done
	python3 - "$mode" "$out" "${seeds[@]}" <<'PY'
import json, sys
mode, out, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
t = [json.load(open("%s/%s-%s/summary.json" % (out, mode, s)))["throughput"] for s in seeds]
print("%-5s %5s %7.3f %7.3f %7.3f" % (mode, "all", sum(x["mean"] for x in t) / len(t),
      min(x["min"] for x in t), min(x["p1"] for x in t)))
PY
done
