#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# Spraying over four direct planes (lib_fabric.sh fabric_direct 4: h1:eP
# <-> h2:eP).  Without a route a QP uses plane 1 only: during ib_write_bw
# (h2 writes to h1) planes 2-4 carry no MRC packet (mrcctl -s plane
# counters) and next to nothing on the veths.  With a route over the four
# planes each plane carries within 20% of an even share of the bytes, read
# from h1's veth receive counters and from the instances' plane counters
# (h2's tx, h1's rx), over 6 s of ib_write_bw; a verified mrc_verify
# transfer over the four planes is clean.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

TOL=20		# % of an even share
BW_SECS=6

require_cmd rdma ibv_devinfo ib_write_bw "$MRCCTL"
fabric_direct_setup 4
tmp=$(mktemp -d) || exit 1

# measure DESC: ib_write_bw, once it moves data BW_SECS seconds between
# the fabric snapshots $tmp/a, $tmp/b and the plane counters $tmp/pa.*,
# $tmp/pb.*.
measure() {
	local h
	fab_bw_start || diag "$1: ib_write_bw did not start moving data"
	fab_snapshot "$tmp/a"
	for h in 1 2; do
		fab_plane_stats "h$h" "$(fab_dev $h)" >"$tmp/pa.$h"
	done
	sleep "$BW_SECS"
	fab_snapshot "$tmp/b"
	for h in 1 2; do
		fab_plane_stats "h$h" "$(fab_dev $h)" >"$tmp/pb.$h"
	done
	fab_bw_stop "$1"
}

# h1_rx P: bytes h1 received on plane P's veth during the measurement.
h1_rx() {
	fab_delta "$tmp/a" "$tmp/b" h1 "e$1" rx_bytes
}

# plane_ctr H P COL: growth of an instance's plane counter (COL 2: tx
# bytes, 3: rx bytes) on host H.
plane_ctr() {
	awk -v p="$2" -v c="$3" '
		FNR == NR && $1 == p { old = $c }
		FNR != NR && $1 == p { print $c - old; seen = 1 }
		END { if (!seen) print "none" }' "$tmp/pa.$1" "$tmp/pb.$1"
}

# --- no route: plane 1 only ------------------------------------------------
measure "no route"
r1=$(h1_rx 1)
diag "no route: h1 rx bytes per plane: $r1 $(h1_rx 2) $(h1_rx 3) $(h1_rx 4)"
check "no route: plane 1 carries the transfer (h1 e1 rx $r1 bytes)" test "$r1" -gt 1000000
for p in 2 3 4; do
	tx=$(plane_ctr 2 "$p" 2)
	rx=$(plane_ctr 1 "$p" 3)
	check "no route: plane $p sends and receives no MRC packet (h2 tx +$tx, h1 rx +$rx bytes)" \
		test "$tx" = 0 -a "$rx" = 0
	# The veth also carries the kernel's own chatter (IPv6 link-local).
	check "no route: plane $p veth carries < 1% of plane 1's bytes ($(h1_rx "$p"))" \
		test $(($(h1_rx "$p") * 100)) -lt "$r1"
done

# --- route over the four planes ----------------------------------------------
check "routes over planes 1-4 on both hosts" fabric_routes
check_output "h2's route lists the four planes" \
	"plane 4 via $(fab_addr 1 4)" ns_exec h2 "$MRCCTL" route show dev "$H2_DEV"
measure "route over 4 planes"
veth=() tx=() rx=()
for p in 1 2 3 4; do
	veth+=("$(h1_rx "$p")")
	tx+=("$(plane_ctr 2 "$p" 2)")
	rx+=("$(plane_ctr 1 "$p" 3)")
done
check "h1 veth rx bytes per plane within $TOL% of an even share" \
	fab_shares_ok "h1 eP rx bytes" "$TOL" "${veth[@]}" && diag "$_mrc_out"
check "h2 $H2_DEV plane tx bytes within $TOL% of an even share" \
	fab_shares_ok "h2 plane tx bytes" "$TOL" "${tx[@]}" && diag "$_mrc_out"
check "h1 $H1_DEV plane rx bytes within $TOL% of an even share" \
	fab_shares_ok "h1 plane rx bytes" "$TOL" "${rx[@]}" && diag "$_mrc_out"
# The instance counts what the veth carries (same packets, the veth adds
# the Ethernet header): the two views agree within 10%.
sum_veth=$(IFS=+; echo $((${veth[*]})))
sum_rx=$(IFS=+; echo $((${rx[*]})))
check "h1's plane rx counters agree with its veths (veth $sum_veth, planes $sum_rx bytes)" \
	test $((sum_rx * 100)) -ge $((sum_veth * 85)) -a $((sum_rx * 100)) -le $((sum_veth * 110))

fab_verify_start --count=40 --max-size=1M --seed=70 ||
	diag "mrc_verify did not report its start"
fab_verify_wait "verified transfer over 4 planes"

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 20
done_testing
