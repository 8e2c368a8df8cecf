#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# Source-routed EVs in a routed IPv6 fabric (lib_fabric.sh fabric_leafspine
# 2 2 v6: each spine has an SRv6 End SID fc00:P:S::e).  h2's route to h1
# names EV profile 7 (mode exp, format srv6) with two EVs on plane 1, each
# "SID,SEGMENT": the End SID of one spine and h1's plane-1 address as the
# one SRH segment:
#   index 0  fc00:1:2::e,fd00:1:1::1   pinned to spine 2
#   index 1  fc00:1:1::e,fd00:1:1::1   pinned to spine 1, then DENIED
# First the fabric alone: a UDP datagram with that SID and SRH (an
# IPV6_RTHDR socket option) crosses spine 2 only and reaches h1.  Then,
# during ib_write_bw from h2 to h1 (IPv6 GIDs): spine 2 carries the data
# (> 1 MB over the window), spine 1 -- the denied EV's -- carries nothing
# from h2's leaf (< 1% of spine 2's bytes: the routers' own chatter); and a
# verified mrc_verify transfer over the pinned EV is clean.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

WINDOW=6
PROF=7

require_cmd ib_write_bw "$MRCCTL" "$VERBS_BIN/mrc_verify"
fabric_setup "fabric: 2 planes x 2 spines, IPv6, SRv6 End SIDs on the spines" 2 2 v6
tmp=$(mktemp -d) || exit 1
h1a=$(fab_addr 1 1)
h2a=$(fab_addr 2 1)

# --- the fabric alone: an SRv6 datagram via spine 2 ------------------------------
SRH_PY='
import socket, sys
sid, dst = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
# Type 4 routing header, 2 segments (the kernel puts the destination in
# segment 0 and sends to the last one, the SID), segments_left 1.
srh = bytes([0, 4, 4, 1, 1, 0, 0, 0]) + bytes(16) + socket.inet_pton(socket.AF_INET6, sid)
s.setsockopt(socket.IPPROTO_IPV6, 57, srh)
for i in range(200):
    s.sendto(b"x" * 64, (dst, 9))
'
fab_snapshot "$tmp/a"
check "h2 sends 200 UDP datagrams to h1 with SID $(fab_sid 1 2) and an SRH" \
	ns_exec h2 "$FAB_PY" -S -c "$SRH_PY" "$(fab_sid 1 2)" "$h1a"
fab_snapshot "$tmp/b"
s1=$(fab_delta "$tmp/a" "$tmp/b" p1s1 l1 tx_packets)
s2=$(fab_delta "$tmp/a" "$tmp/b" p1s2 l1 tx_packets)
check "the fabric: SRv6 via spine 2 reaches h1's leaf over spine 2 only (spine 1 $s1, spine 2 $s2 packets)" \
	test "$s2" -ge 200 -a "$s1" -lt 10

# --- the EV profile and the routes ------------------------------------------------
M2() { ns_exec h2 "$MRCCTL" "$@"; }
check "h2: ev-profile $PROF, exp, srv6, two EVs on plane 1" \
	M2 ev-profile add dev "$H2_DEV" id $PROF mode exp format srv6 \
	ev plane 1 value "$(fab_sid 1 2),$h1a" \
	ev plane 1 value "$(fab_sid 1 1),$h1a"
check "h2: EV 1 (spine 1) denied" M2 ev-profile ev deny dev "$H2_DEV" profile $PROF index 1
check "h2: profile $PROF offline" M2 ev-profile set dev "$H2_DEV" id $PROF state offline
check "h2: profile $PROF online" M2 ev-profile set dev "$H2_DEV" id $PROF state online
check_output "h2: the profile shows EV 1 denied" "index 1 plane 1 .*denied" \
	M2 ev-profile show dev "$H2_DEV" id $PROF
check "h2: route to h1 on plane 1 with ev-profile $PROF" \
	M2 route add "$h1a" dev "$H2_DEV" plane 1 via "$h1a" ev-profile $PROF
check "h1: route to h2 over both planes (default EVs)" \
	ns_exec h1 "$MRCCTL" route add "$h2a" dev "$H1_DEV" plane 1 via "$h2a" \
	plane 2 via "$(fab_addr 2 2)"

# --- ib_write_bw: spine 2 only --------------------------------------------------
fab_bw_start || diag "ib_write_bw did not start moving data"
sleep 2
fab_snapshot "$tmp/a"
sleep "$WINDOW"
fab_snapshot "$tmp/b"
fab_bw_stop "SRv6 EVs"
b1=$(fab_delta "$tmp/a" "$tmp/b" p1s1 l2 rx_bytes)
b2=$(fab_delta "$tmp/a" "$tmp/b" p1s2 l2 rx_bytes)
o2=$(fab_delta "$tmp/a" "$tmp/b" p2l2 eh rx_bytes)
diag "window of $WINDOW s: from h2's leaf, spine 1 $b1 bytes, spine 2 $b2 bytes; plane 2 $o2 bytes"
check "the pinned EV's spine 2 carries the data ($b2 bytes)" test "$b2" -gt 1000000
check "the denied EV's spine 1 carries nothing ($b1 bytes < 1% of spine 2's)" \
	test $((b1 * 100)) -lt "$b2"
check "plane 2, not in h2's profile, carries nothing from h2 ($o2 bytes < 1% of spine 2's)" \
	test $((o2 * 100)) -lt "$b2"

fab_verify_start --count=60 --max-size=1M --seed=74 || diag "mrc_verify did not report its start"
fab_verify_wait "verified transfer over the pinned SRv6 EV"

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
