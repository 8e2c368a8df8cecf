#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# PNG plots of mrcsim outputs through gnuplot.
#   plot.sh cdf OUT.png RUNDIR...     flow throughput CDF, one curve per run
#   plot.sh timeline OUT.png RUNDIR   per-plane delivered Gb/s vs time,
#                                     failures marked
#   plot.sh DIR                       headline.sh's directory: both kinds
# A RUNDIR is an `mrcsim --out` directory (flows.csv, series.csv, summary.json).
set -euo pipefail
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not installed" >&2; exit 1; }
term="pngcairo size 900,600 font ',11'"
gnuplot -e "set terminal pngcairo" 2>/dev/null </dev/null || term="png size 900,600"

label() {	# run dir -> "transport (scenario)"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]+"/summary.json")); print(d["transport"])' "$1"
}

cdf() {
	local png=$1
	shift
	local tmp plots="" i=0
	tmp=$(mktemp -d)
	for d in "$@"; do
		# fraction_of_line_rate is column 9; failed flows are 0.
		tail -n +2 "$d/flows.csv" | cut -d, -f9 | sort -g |
			awk -v n="$(($(wc -l <"$d/flows.csv") - 1))" '{ print $1, NR / n }' >"$tmp/$i.dat"
		plots+="${plots:+, }'$tmp/$i.dat' using 1:2 with steps lw 2 title '$(label "$d")'"
		i=$((i + 1))
	done
	gnuplot <<-GP
		set terminal $term
		set output '$png'
		set title 'Flow throughput CDF'
		set xlabel 'flow throughput / line rate'
		set ylabel 'fraction of flows'
		set xrange [0:1.02]
		set yrange [0:1]
		set key left top
		set grid
		plot $plots
	GP
	rm -rf "$tmp"
}

timeline() {
	local png=$1 d=$2 arrows=""
	for t in $(python3 -c 'import json,sys; print(" ".join(str(x) for x in json.load(open(sys.argv[1]+"/summary.json")).get("failures_us", [])))' "$d"); do
		arrows+="set arrow from $t, graph 0 to $t, graph 1 nohead lw 2 lc rgb 'red' dt 2"$'\n'
	done
	local planes
	planes=$(tail -n +2 "$d/series.csv" | cut -d, -f2 | sort -n | uniq | tr '\n' ' ')
	local plots=""
	for p in $planes; do
		plots+="${plots:+, }'< grep -E \"^[^,]*,$p,\" $d/series.csv' using 1:3 with lines lw 2 title 'plane $p'"
	done
	gnuplot <<-GP
		set terminal $term
		set output '$png'
		set title 'Delivered throughput per plane ($(label "$d")); dashed: failure'
		set xlabel 'time (us)'
		set ylabel 'Gb/s delivered to hosts'
		set datafile separator ','
		set key outside right
		set grid
		$arrows
		plot $plots
	GP
}

case ${1:-} in
cdf) shift; cdf "$@" ;;
timeline) shift; timeline "$@" ;;
"") echo "usage: plot.sh cdf OUT.png RUNDIR... | timeline OUT.png RUNDIR | DIR" >&2; exit 2 ;;
*)
	dir=$1
	for group in perm perm-fail; do
		runs=()
		for tr in mrc gbn spray; do
			[ -f "$dir/$group-$tr/flows.csv" ] && runs+=("$dir/$group-$tr")
		done
		[ ${#runs[@]} -gt 0 ] && cdf "$dir/cdf-$group.png" "${runs[@]}" && echo "$dir/cdf-$group.png"
	done
	for tr in mrc gbn spray; do
		[ -f "$dir/perm-fail-$tr/series.csv" ] && timeline "$dir/timeline-perm-fail-$tr.png" "$dir/perm-fail-$tr" &&
			echo "$dir/timeline-perm-fail-$tr.png"
	done
	for d in "$dir"/plane-down-*; do
		[ -f "$d/series.csv" ] && timeline "$dir/timeline-$(basename "$d").png" "$d" &&
			echo "$dir/timeline-$(basename "$d").png"
	done
	;;
esac
exit 0
