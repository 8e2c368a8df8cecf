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
scn=$root/tools/sim/scenarios/plane-down.scn
# shellcheck source=goals-lib.sh
. "$here/goals-lib.sh"
goals_prepare
for mode in $modes; do
	goals_mode "$mode"
done
