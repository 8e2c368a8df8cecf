#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The fat-tree rows of issue 18's goals: k=8 3-tier fat tree, 128 hosts,
# a permutation of 2 MB flows, MRC with SRv6 and with UDP (hashed) EVs.
# Runs one simulation at a time (nice 19) and prints, per EV mode, the
# mean and min flow throughput (fraction of line rate) of every seed, then
# the mean of the seeds' means and the lowest min.
#
#   fat-tree-goals.sh [-b BUILD] [-o OUT] [--degraded] [--set key=value]... [SEED...]
# --degraded: the degraded-links row instead (scenarios/fat-tree-degraded.scn:
# four core links, one per pod, at 25 % of their rate and buffer from t=0).
# Seeds default to 1..10.  Run directories go to OUT (default: a temporary
# directory, removed at the end).  Hashed EVs use the recycling EV choice
# (mrc.spray=recycle), SRv6 EVs the round robin: the choice a controller
# makes per EV format (Documentation/sim.rst, "Fat tree").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$root/build
out=
extra=()
seeds=()
scn=$root/tools/sim/scenarios/fat-tree-k8.scn
while [ $# -gt 0 ]; do
	case $1 in
	-b) build=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--degraded) scn=$root/tools/sim/scenarios/fat-tree-degraded.scn; shift ;;
	--set) extra+=(--set "$2"); shift 2 ;;
	-h|--help) sed -n '3,15p' "$0"; exit 0 ;;
	-*) echo "usage: $0 [-b BUILD] [-o OUT] [--degraded] [--set k=v]... [SEED...]" >&2; exit 2 ;;
	*) seeds+=("$1"); shift ;;
	esac
done
# shellcheck source=goals-lib.sh
. "$here/goals-lib.sh"
goals_prepare
for mode in srv6 udp; do
	spray=round_robin
	[ "$mode" = udp ] && spray=recycle
	goals_mode "$mode" --set flow_bytes=2MB --set mrc.spray=$spray
done
