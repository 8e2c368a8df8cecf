#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 480
#
# Failover in a routed fabric (lib_fabric.sh fabric_leafspine 2 2, a route
# over both planes, h2 sends to h1).  Two faults, each for 6 s:
#   1. The link between spine 1 and the leaf in front of h1 of plane 1
#      goes down: the EVs leaf 2 hashes to spine 1 lose every packet (the
#      spine has no route left), silently for the sender.
#   2. h1's netdev of plane 2 goes down: the whole plane is gone (h1 sees
#      it, h2's own netdev keeps its carrier).
# Each fault hits two transfers in turn:
#   - ib_write_bw: h1 goes on receiving while the path is down, and after
#     the repair the repaired spine or plane carries traffic again (its
#     EVs are probed back) while the same QP still sends; ib_write_bw
#     never fails;
#   - a verified mrc_verify transfer (the fault 3 s into it): it completes
#     with zero corrupted bytes and zero failed completions.
# When mrcctl monitor prints EV state events, they must show ASSUMED_BAD
# and GOOD again; until then that check is skipped.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

DOWN_SECS=6
# The plan of one round; the transfers run --until-stopped, so they
# outlast each fault however fast the host is.
VERIFY=(--count=100 --min-size=256K --max-size=1M)

require_cmd ib_write_bw "$MRCCTL" "$VERBS_BIN/mrc_verify"
fabric_setup "fabric: 2 planes x 2 spines" 2 2
check "routes over planes 1-2 on both hosts" fabric_routes
tmp=$(mktemp -d) || exit 1

ev_events=0
if "$MRCCTL" help monitor 2>&1 | grep -Eiq 'ev[ _-]?state|assumed'; then
	ev_events=1
	"$MRCCTL" -n h2 monitor >"$tmp/monitor" 2>&1 &
	mon=$!
	sleep 1
fi

# window_bytes NS IF SECS: bytes NS's IF sent during the next SECS s.
window_bytes() {
	fab_stats "$1" >"$tmp/w0"
	sleep "$3"
	fab_stats "$1" >"$tmp/w1"
	fab_delta "$tmp/w0" "$tmp/w1" "$1" "$2" tx_bytes
}

# fault DESC DOWN_CMD UP_CMD NS IF: ib_write_bw; once it moves data, 3 s
# in, DOWN_CMD; h1 still receives while down; DOWN_SECS later UP_CMD; then
# NS's IF (the repaired path's last hop toward h1) must carry traffic
# again within 12 s while the same ib_write_bw runs.  Then mrc_verify with
# the same fault 3 s in, repaired DOWN_SECS later: a clean transfer.
# shellcheck disable=SC2086 # $down and $up are commands with arguments
fault() {
	local desc=$1 down=$2 up=$3 ns=$4 ifc=$5 b i
	fab_bw_start || diag "$desc: ib_write_bw did not start moving data"
	sleep 3
	check "$desc: ib_write_bw runs when the fault comes" fab_bw_running
	check "$desc: $down" $down
	b=$(fab_rx_total)
	sleep "$DOWN_SECS"
	i=$(fab_rx_total)
	check "$desc: h1 goes on receiving while the path is down ($((i - b)) bytes in $DOWN_SECS s)" \
		test $((i - b)) -gt 1000000
	check "$desc: $up" $up
	b=0
	for i in $(seq 6); do
		b=$(window_bytes "$ns" "$ifc" 2)
		[ "$b" -gt 100000 ] && break
	done
	check "$desc: the repaired path carries traffic again ($ns $ifc: $b bytes in 2 s, after $((i * 2)) s)" \
		test "$b" -gt 100000
	fab_bw_stop "$desc"

	# Until stopped, so the fault and the repair fall inside the
	# transfer however fast the host is.
	fab_verify_start "${VERIFY[@]}" --until-stopped --seed=72 ||
		diag "$desc: mrc_verify did not report its start"
	sleep 3
	check "$desc: mrc_verify runs when the fault comes" fab_verify_running
	check "$desc: $down (mrc_verify)" $down
	sleep "$DOWN_SECS"
	check "$desc: mrc_verify still runs after $DOWN_SECS s" fab_verify_running
	check "$desc: $up (mrc_verify)" $up
	sleep 3
	check "$desc: mrc_verify still runs 3 s after the repair" fab_verify_running
	fab_verify_stop
	fab_verify_wait "$desc: verified transfer"
}

fault "spine link" "fab_spine_link 1 1 1 down" "fab_spine_link 1 1 1 up" p1s1 l1
fault "plane 2" "fab_plane_link 1 2 down" "fab_plane_link 1 2 up" p2l1 eh

if [ "$ev_events" = 1 ]; then
	kill "$mon" 2>/dev/null
	diag "monitor: $(grep -c '^ev state' "$tmp/monitor") EV state events, the first:"
	diag "$(grep '^ev state' "$tmp/monitor" | head -n 4)"
	check_output "monitor: an EV of h2 turned ASSUMED_BAD" "^ev state .*-> assumed_bad" \
		cat "$tmp/monitor"
	check_output "monitor: an EV of h2 turned GOOD again" "^ev state .*assumed_bad -> good" \
		cat "$tmp/monitor"
else
	skip "monitor shows EV state events (ASSUMED_BAD, GOOD)" \
		"mrcctl monitor does not print EV state events yet"
fi

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
