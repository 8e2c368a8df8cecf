#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 360
#
# Bad paths that never go down (lib_fabric.sh fabric_leafspine 2 2, a
# route over both planes, h2 sends to h1):
#   1. A blackhole for one EV: the leaf in front of h2 drops every packet
#      with that EV's UDP source port (tc flower ... action drop).  During
#      ib_write_bw, over a window after the first seconds, the EV (the
#      bytes the filter drops) carries less than a quarter of an even
#      share of its plane (the plane's bytes / 16 EVs): it is retired and
#      only probed (probes are small).
#   2. 5% netem loss on h2's netdev of plane 2.  During ib_write_bw, over
#      a window after the first seconds, h2 sends (its own plane tx
#      counters) clearly less than an even share on plane 2: under 80% of
#      it, i.e. below the 20% band the other tests call even.
# With each fault a verified mrc_verify transfer completes with zero
# corrupted bytes and zero failed completions (for the blackhole, one of
# that transfer's own EVs is blackholed 2 s in, until the end).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

WARMUP=6	# s: the first seconds, when the bad path is being found
WINDOW=6	# s: then the measurement
VERIFY=(--count=200 --min-size=256K --max-size=1M)

require_cmd ib_write_bw "$MRCCTL" "$VERBS_BIN/mrc_verify"
fabric_setup "fabric: 2 planes x 2 spines" 2 2
check "routes over planes 1-2 on both hosts" fabric_routes
tmp=$(mktemp -d) || exit 1

# blackhole_ev DESC: sniff plane 1's EVs at the leaf in front of h2 for
# 2 s and blackhole the busiest; its source port in $sport.
blackhole_ev() {
	fab_sniff p1l2 eh 2 >"$tmp/sniff"
	diag "$1: plane 1 EVs (source port, sampled packets): $(tr '\n' ' ' <"$tmp/sniff")"
	sport=$(sort -k2,2nr "$tmp/sniff" | awk '$1 >= 49152 { print $1; exit }')
	if [ -z "$sport" ]; then
		not_ok "$1: an EV of plane 1 seen at the leaf"
		return 1
	fi
	check "$1: blackhole for UDP source port $sport at the leaf in front of h2 (plane 1)" \
		fab_blackhole p1l2 eh "$sport"
}

# --- 1. one EV blackholed ------------------------------------------------------
fab_bw_start || diag "ib_write_bw did not start moving data"
sleep 2
if blackhole_ev "ib_write_bw"; then
	sleep "$WARMUP"
	read -r p0 b0 <<<"$(fab_blackhole_drops p1l2 eh)"
	fab_stats p1l2 >"$tmp/a"
	sleep "$WINDOW"
	read -r p1 b1 <<<"$(fab_blackhole_drops p1l2 eh)"
	fab_stats p1l2 >"$tmp/b"
	plane=$(fab_delta "$tmp/a" "$tmp/b" p1l2 eh rx_bytes)
	planep=$(fab_delta "$tmp/a" "$tmp/b" p1l2 eh rx_packets)
	drops=$((b1 - b0))
	diag "window of $WINDOW s: plane 1 from h2 $plane bytes in $planep packets (even share of one EV: $((plane / 16)) bytes), the blackholed EV $drops bytes in $((p1 - p0)) packets (since the blackhole: $b1 bytes, $p1 packets)"
	check "plane 1 carried traffic in the window ($plane bytes)" test "$plane" -gt 500000
	check "the blackholed EV carries < 1/4 of an even share ($drops < $((plane / 64)) bytes)" \
		test $((drops * 64)) -lt "$plane"
	diag "h2's view of that EV (mrcctl -s conn show): $(ns_exec h2 "$MRCCTL" -s conn show \
		dev "$H2_DEV" 2>&1 | grep -E "sport $sport( |\$)" | head -n 1)"
fi
fab_bw_stop "one EV blackholed"
check "remove the blackhole" fab_blackhole_off p1l2 eh

# Until stopped: the transfer crosses the blackhole for WINDOW s however
# fast the host moves it.
fab_verify_start "${VERIFY[@]}" --until-stopped --seed=731 ||
	diag "mrc_verify did not report its start"
sleep 2
if blackhole_ev "mrc_verify"; then
	check "mrc_verify still runs with the blackhole" fab_verify_running
	sleep "$WINDOW"
	check "mrc_verify still runs after $WINDOW s of the blackhole" fab_verify_running
fi
fab_verify_stop
fab_verify_wait "one EV blackholed: verified transfer"
check "remove the blackhole" fab_blackhole_off p1l2 eh

# --- 2. 5% loss on plane 2 --------------------------------------------------------
# plane_tx P: h2's instance counter of bytes sent on plane P.
plane_tx() {
	fab_plane_stats h2 "$H2_DEV" | awk -v p="$1" '$1 == p { print $2 }'
}
check "netem loss 5% on h2's netdev of plane 2" fab_loss 2 2 5
fab_bw_start || diag "ib_write_bw did not start moving data"
sleep "$WARMUP"
a1=$(plane_tx 1)
a2=$(plane_tx 2)
sleep "$WINDOW"
b1=$(plane_tx 1)
b2=$(plane_tx 2)
t1=$((b1 - a1))
t2=$((b2 - a2))
diag "window of $WINDOW s: h2 sent $t1 bytes on plane 1, $t2 on plane 2 (the lossy one)"
diag "h2's connection (mrcctl -s conn show, first lines):"
diag "$(ns_exec h2 "$MRCCTL" -s conn show dev "$H2_DEV" 2>&1 | head -n 5)"
check "h2 sent on plane 1 in the window" test "$t1" -gt 1000000
check "the lossy plane carries < 80% of an even share ($t2 of $((t1 + t2)) bytes)" \
	test $((t2 * 100 * 2)) -lt $(((t1 + t2) * 80))
fab_bw_stop "5% loss on plane 2"

fab_verify_start "${VERIFY[@]}" --seed=732 || diag "mrc_verify did not report its start"
fab_verify_wait "5% loss on plane 2: verified transfer"
check "netem off" fab_loss_off 2 2

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
