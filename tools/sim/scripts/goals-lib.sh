# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2154 # build, out, seeds, extra, scn: the caller's
# Shared by the goals scripts (fat-tree-goals.sh, plane-down-goals.sh):
# each parses its own options into build, out, seeds, extra and scn, then
# calls goals_prepare once and goals_mode per EV mode.

# goals_prepare: seeds 1..10 unless given, the simulator of $build, the
# run directories' $out (a temporary one, removed at exit, unless given),
# and the table's header.
goals_prepare() {
	[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5 6 7 8 9 10)
	sim=$build/bin/mrcsim
	[ -x "$sim" ] || {
		echo "no $sim: build it first (cmake --build $build --target mrcsim)" >&2
		exit 1
	}
	if [ -z "$out" ]; then
		out=$(mktemp -d)
		trap 'rm -rf "$out"' EXIT
	fi
	mkdir -p "$out"
	printf '%-5s %5s %7s %7s %7s\n' mode seed mean min p1
}

# goals_mode MODE [--set key=value]...: one simulation of $scn per seed
# (nice 19, one at a time) with EV mode MODE, a row each (mean, min and
# p1 flow throughput), then the row "all": the mean of the seeds' means,
# the lowest min and p1.
goals_mode() {
	local mode=$1 s d
	shift
	for s in "${seeds[@]}"; do
		d=$out/$mode-$s
		nice -n 19 "$sim" "$scn" --out "$d" --set transport=mrc \
			--set ev_mode="$mode" "$@" --set seed="$s" "${extra[@]}" -q
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
}
