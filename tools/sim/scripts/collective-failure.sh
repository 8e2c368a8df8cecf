#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Issue 18's collective row: ring all-reduce and all-to-all on the 1024
# hosts, 4 planes of scenarios/permutation-1024.scn, one spine link
# failing in the middle of the collective.  Per collective, EV mode and
# seed: a run without the failure, then the same with one seeded random
# spine link (random_links count=1) going down at a fraction (--at, 0.4)
# of the first run's completion time.  Prints both completion times (the
# last flow's finish, summary.json completion_us) and their ratio, then
# per collective and mode the mean and the worst ratio.  One simulation
# at a time, nice 19.
#
#   collective-failure.sh [-b BUILD] [-o OUT] [-c "ring a2a"] [-m "srv6 udp"]
#                         [--at F] [--set key=value]... [SEED...]
# Seeds default to 1..5, -c to both collectives, -m to srv6.  The sizes
# (Documentation/sim.rst, "Collectives with a failure"): ring = 16 steps
# of 1 MB chunks around a seeded random ring of the 1024 hosts; a2a = each
# host sends 64 KB to 31 peers, one under each other leaf.  The steps
# between two hosts are messages on one connection (mrc.reuse=1).  Run
# directories go to OUT (default: a temporary directory, removed at the
# end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$root/build
out=
extra=()
seeds=()
colls="ring a2a"
modes=srv6
at=0.4
scn=$root/tools/sim/scenarios/permutation-1024.scn
while [ $# -gt 0 ]; do
	case $1 in
	-b) build=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-c) colls=$2; shift 2 ;;
	-m) modes=$2; shift 2 ;;
	--at) at=$2; shift 2 ;;
	--set) extra+=(--set "$2"); shift 2 ;;
	-h|--help) sed -n '3,21p' "$0"; exit 0 ;;
	-*) echo "usage: $0 [-b BUILD] [-o OUT] [-c \"ring a2a\"] [-m \"srv6 udp\"] [--at F] [--set k=v]... [SEED...]" >&2; exit 2 ;;
	*) seeds+=("$1"); shift ;;
	esac
done
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5)
sim=$build/bin/mrcsim
[ -x "$sim" ] || { echo "no $sim: build it first (cmake --build $build --target mrcsim)" >&2; exit 1; }
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

coll_args() {	# collective -> its traffic keys
	case $1 in
	ring) echo "--set traffic=ring --set ring_order=random --set ring_steps=16 --set flow_bytes=1MB" ;;
	a2a) echo "--set traffic=all_to_all --set all_to_all_peers=31 --set flow_bytes=64KB" ;;
	*) echo "unknown collective '$1' (ring or a2a)" >&2; exit 2 ;;
	esac
}

completion() {	# summary.json -> completion_us (fails unless every flow finished)
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["completion_us"] < 0:
    sys.exit("%s: %d failed, %d unfinished flows" % (sys.argv[1], d["failed"], d["unfinished"]))
print(d["completion_us"])
PY
}

printf '%-5s %-5s %5s %11s %11s %7s\n' coll mode seed base_us fail_us ratio
for c in $colls; do
	# shellcheck disable=SC2207 # word-split on purpose: keys have no spaces
	args=($(coll_args "$c"))
	for mode in $modes; do
		spray=round_robin
		[ "$mode" = udp ] && spray=recycle
		ratios=()
		for s in "${seeds[@]}"; do
			common=(--set transport=mrc --set ev_mode="$mode" --set mrc.spray="$spray"
				--set mrc.reuse=1 "${args[@]}" --set seed="$s" "${extra[@]}" -q)
			d=$out/$c-$mode-$s
			nice -n 19 "$sim" "$scn" --out "$d-base" "${common[@]}"
			base=$(completion "$d-base/summary.json")
			t=$(python3 -c "print('%.3fus' % ($base * $at))")
			nice -n 19 "$sim" "$scn" --out "$d-fail" "${common[@]}" \
				--set failure="random_links at=$t count=1"
			fail=$(completion "$d-fail/summary.json")
			r=$(python3 -c "print('%.4f' % ($fail / $base))")
			ratios+=("$r")
			printf '%-5s %-5s %5s %11.3f %11.3f %7s\n' "$c" "$mode" "$s" "$base" "$fail" "$r"
		done
		python3 - "$c" "$mode" "${ratios[@]}" <<'PY'
import sys
c, mode, r = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3:]]
print("%-5s %-5s %5s %11s %11s %7.4f  worst %.4f" % (c, mode, "mean", "", "", sum(r) / len(r), max(r)))
PY
	done
done
