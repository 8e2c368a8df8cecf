#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 420
#
# Gloo (Debian's libgloo-dev, unmodified), the collective library PyTorch
# uses, over its own ibverbs transport on mrc: tools/testing/gloo's
# mrc_gloo_allreduce runs Gloo's ring all-reduce between h1 and h2 of a
# routed fabric (lib_fabric.sh fabric_leafspine 2 2, a route over both
# planes), the ranks meeting through a gloo FileStore, every element of
# every round checked against the known sum:
#   1. a clean run of 20 all-reduces of 256 KiB;
#   2. the same collective going on while h1's netdev of plane 2 goes
#      down for 5 s and comes back: rounds complete during the fault
#      (the connection's QPs go on over plane 1), plane 2 carries MRC
#      traffic again after it, and every result is right.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

GLOO=$VERBS_BIN/mrc_gloo_allreduce
DOWN_SECS=5
require_cmd "$MRCCTL"
if [ ! -x "$GLOO" ]; then
	skip "Gloo all-reduce over mrc" "mrc_gloo_allreduce was not built (no libgloo-dev)"
	done_testing
fi
fabric_setup "fabric: 2 planes x 2 spines" 2 2
check "routes over planes 1-2 on both hosts" fabric_routes
tmp=$(mktemp -d) || exit 1

# gloo_start NAME ARGS...: both ranks in the background (rank 0 on h1),
# their store in $tmp/NAME.store, output in $tmp/NAME.R.
gloo_start() {
	local name=$1 h
	shift
	mkdir -p "$tmp/$name.store" || return 1
	gpids=()
	for h in 1 2; do
		ns_bg "h$h" timeout -k 5 240 "$GLOO" --rank $((h - 1)) --size 2 \
			--store "$tmp/$name.store" -d "$(fab_dev $h)" -g "$FAB_GID" \
			--timeout 60 "$@" </dev/null >"$tmp/$name.$((h - 1))" 2>&1
		gpids+=("$BG_PID")
	done
}

# gloo_wait NAME DESC: both ranks finished, each with 0 wrong elements.
gloo_wait() {
	local name=$1 desc=$2 r rc
	for r in 0 1; do
		wait "${gpids[$r]}"
		rc=$?
		check_finished "$desc: rank $r" $rc "$tmp/$name.$r" \
			"^mrc_gloo: rank $r: [1-9][0-9]* all-reduces of [0-9]+ floats, 0 wrong\$" \
			mrc_gloo_allreduce --rank $r
	done
}

# gloo_rounds NAME: the last "rounds N" rank 0 printed (0 before any).
gloo_rounds() {
	sed -n 's/^rounds \([0-9]*\)$/\1/p' "$tmp/$1.0" | tail -n 1 | grep . || echo 0
}

gloo_start clean --count 65536 --iters 20
gloo_wait clean "20 all-reduces of 64 Ki floats, every result checked"

# Until told to stop, so the fault falls inside the collective however
# fast the guest is.
gloo_start fault --count 65536 --iters 5 --until "$tmp/stop"
n=0
for _ in $(seq 60); do
	n=$(gloo_rounds fault)
	[ "$n" -gt 0 ] && break
	sleep 1
done
check "plane 2 fault: the collective runs when the fault comes ($n rounds)" test "$n" -gt 0
sleep 2
check "plane 2 fault: h1's netdev of plane 2 goes down" fab_plane_link 1 2 down
b=$(gloo_rounds fault)
sleep "$DOWN_SECS"
a=$(gloo_rounds fault)
check "plane 2 fault: all-reduces complete while it is down ($b -> $a rounds in $DOWN_SECS s)" \
	test "$a" -gt "$b"
check "plane 2 fault: h1's netdev of plane 2 comes back" fab_plane_link 1 2 up
b=0
for i in $(seq 6); do
	fab_stats h1 >"$tmp/s0"
	sleep 2
	fab_stats h1 >"$tmp/s1"
	b=$(fab_delta "$tmp/s0" "$tmp/s1" h1 e2 tx_bytes)
	[ "$b" -gt 100000 ] && break
done
check "plane 2 fault: plane 2 carries the collective again ($b bytes out of h1 e2 in 2 s, after $((i * 2)) s)" \
	test "$b" -gt 100000
touch "$tmp/stop"
gloo_wait fault "plane 2 down 5 s mid-collective: every result checked"

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
