#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The headline experiments of Documentation/sim.rst:
#   1. permutation, 1024 hosts, 2-tier, 4 planes: MRC vs ECMP go-back-N vs
#      oblivious spraying (mean and p1 flow throughput / line rate);
#   2. the same with 1% of the fabric links failing mid-run;
#   3. simulator speed and memory at 1024 and 8192 hosts.
# Runs one simulation at a time.  Results go to OUT/<run>/ (flows.csv,
# series.csv, summary.json), a table to OUT/results.txt, plots via plot.sh.
#
#   headline.sh [-o OUT] [-b BUILD] [-s FLOW_BYTES] [--no-speed] [--speed-only]
#               [--all] [--set key=value]...
# --all adds the MRC SRv6/tuned variants and the plane-down, fat-tree-k8
# and incast scenarios for every transport (everything in sim.rst).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$root/build/sim-headline
build=$root/build
size=16MB
speed=1
main=1
all=0
extra=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-b) build=$2; shift 2 ;;
	-s) size=$2; shift 2 ;;
	--no-speed) speed=0; shift ;;
	--speed-only) main=0; shift ;;
	--all) all=1; shift ;;
	--set) extra+=(--set "$2"); shift 2 ;;
	*) echo "usage: $0 [-o OUT] [-b BUILD] [-s FLOW_BYTES] [--no-speed] [--speed-only] [--all] [--set k=v]..." >&2; exit 2 ;;
	esac
done
sim=$build/bin/mrcsim
[ -x "$sim" ] || { echo "no $sim: build it first (cmake --build $build --target mrcsim)" >&2; exit 1; }
mkdir -p "$out"
scn=$root/tools/sim/scenarios

run() {	# name scenario transport [--set ...]
	local name=$1 file=$2 tr=$3
	shift 3
	echo "== $name ($tr)" >&2
	"$sim" "$file" --out "$out/$name" --set transport="$tr" --set flow_bytes="$size" "${extra[@]}" "$@" -q
}

field() {	# summary.json key -> value (flat or one level deep: throughput.mean)
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k]
print(d)' "$1" "$2"
}

if [ $main = 1 ]; then
	for tr in mrc gbn spray; do
		run "perm-$tr" "$scn/permutation-1024.scn" "$tr"
		run "perm-fail-$tr" "$scn/permutation-1024-failures.scn" "$tr"
	done
	{
		printf "%-16s %-6s %8s %8s %8s %7s %7s %10s\n" run transport mean p1 p50 failed unfin retx
		for r in perm perm-fail; do
			for tr in mrc gbn spray; do
				j=$out/$r-$tr/summary.json
				printf "%-16s %-6s %8.4f %8.4f %8.4f %7s %7s %10s\n" "$r" "$tr" \
					"$(field "$j" throughput.mean)" "$(field "$j" throughput.p1)" \
					"$(field "$j" throughput.p50)" "$(field "$j" failed)" \
					"$(field "$j" unfinished)" "$(field "$j" retransmissions)"
			done
		done
	} | tee "$out/results.txt"
	"$here/plot.sh" "$out" || echo "plot.sh failed (gnuplot missing?)" >&2
fi

if [ $all = 1 ]; then
	tuned=(--set ev_mode=srv6 --set mrc.target_delay=10us --set mrc.eta=64 --set mrc.init_cwnd=600KB)
	run perm-mrc-srv6 "$scn/permutation-1024.scn" mrc --set ev_mode=srv6
	run perm-fail-mrc-srv6 "$scn/permutation-1024-failures.scn" mrc --set ev_mode=srv6
	run perm-mrc-srv6-tuned "$scn/permutation-1024.scn" mrc "${tuned[@]}"
	run perm-fail-mrc-srv6-tuned "$scn/permutation-1024-failures.scn" mrc "${tuned[@]}"
	for s in plane-down fat-tree-k8 incast; do
		for tr in mrc gbn spray; do
			# These scenarios set their own flow sizes.
			echo "== $s-$tr" >&2
			"$sim" "$scn/$s.scn" --out "$out/$s-$tr" --set transport="$tr" "${extra[@]}" -q
		done
	done
	"$here/plot.sh" "$out" >/dev/null
	"$here/plot.sh" cdf "$out/cdf-fat-tree-k8.png" "$out"/fat-tree-k8-{mrc,gbn,spray}
fi

if [ $speed = 1 ]; then
	# Speed: MRC permutation, 1 MB flows so the 8192-host run stays short.
	run speed-1024 "$scn/permutation-1024.scn" mrc --set flow_bytes=1MB
	run speed-8192 "$scn/permutation-1024.scn" mrc --set flow_bytes=1MB --set hosts=8192 \
		--set hosts_per_leaf=64 --set spines=64 --set name=permutation-8192
	{
		printf "%-11s %12s %10s %10s %14s %14s %10s\n" run events cpu_s wall_s events/cpu_s sim_us/cpu_s rss_mb
		for r in speed-1024 speed-8192; do
			j=$out/$r/summary.json
			printf "%-11s %12s %10s %10s %14s %14s %10s\n" "$r" "$(field "$j" events)" \
				"$(field "$j" perf.cpu_s)" "$(field "$j" perf.wall_s)" "$(field "$j" perf.events_per_cpu_s)" \
				"$(field "$j" perf.sim_us_per_cpu_s)" "$(field "$j" perf.peak_rss_mb)"
		done
	} | tee "$out/speed.txt"
fi
