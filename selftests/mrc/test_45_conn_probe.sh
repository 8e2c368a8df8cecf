#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 900
#
# Live connections and probes on two hosts joined directly by 3 planes
# (veth pairs), a route over all three on both hosts:
#   - mrcctl conn show (text, -j, -s per plane and per EV, one QP by qpn)
#     during a verified transfer: the default EV set (16 per plane), its
#     packets spread over the planes;
#   - a blackholed plane: its EVs turn assumed_bad ("ev state" events in
#     mrcctl monitor), the transfer completes without error, and after
#     the blackhole goes the probes bring them back to good;
#   - a plane whose carrier goes down: "plane down" event, its EVs unused;
#   - a plane set admin down: the peer stops using it too (PORT_STATUS);
#   - an EXP EV profile: the QP's EVs carry its UDP ports, denying one EV
#     for one live QP (qpn) or for all (profile) shows it denied; a per-QP
#     replacement with an invalid or duplicate value is refused with the
#     profile's errno and message, the QP's EV unchanged; the profile's
#     min-active and event mask changed reach the live QP at once;
#   - mrcctl probe: every EV of the route, one explicit EV, a profile's
#     EVs, the blackholed plane timing out (exit 1 when nothing answers);
#   - mrcctl probe with explicit EVs (an endpoint batch, the controller
#     API's EV probe): one per plane, each answered on its plane, text
#     and -j; the blackholed plane's EV times out while the others
#     answer; the batch's refusals (a source that is not the instance's,
#     STEV toward IPv4);
#   - every bad request of CONN_GET, PROBE and the per-QP EV change.
. "$(dirname "$0")/lib.sh"

M1() { "$MRCCTL" -n h1 "$@"; }
M2() { "$MRCCTL" -n h2 "$@"; }

mrc_tmpdir
mon=$tmp/monitor.txt
# The events here follow transfers and probes: wait up to 30 s for each.
WAIT_LINE_SECONDS=30

# blackhole NS DEV on|off: drop every IPv4 packet DEV sends.
blackhole() {
	if [ "$3" = on ]; then
		ip -n "$1" link set "$2" up &&
		tc -n "$1" qdisc add dev "$2" root handle 1: prio &&
		tc -n "$1" filter add dev "$2" parent 1: protocol ip u32 \
			match u32 0 0 action drop
	else
		tc -n "$1" qdisc del dev "$2" root
	fi
}

# start_verify SUFFIX OPTION...: mrc_verify, server h1 (log server$SUFFIX),
# client h2 with OPTIONs (log client$SUFFIX), in the background: $srv, $cli.
# The transfers run --until-stopped: however fast the host, the QP lives
# until stop_verify (SIGINT: the client ends after the batch in flight).
start_verify() {
	local sfx=$1
	shift
	ns_bg h1 timeout 620 "$VERBS_BIN/mrc_verify" -d mrc1 -g 1 --timeout=600 \
		>"$tmp/server$sfx.txt" 2>&1
	srv=$BG_PID
	sleep 1
	ns_bg h2 timeout 620 "$VERBS_BIN/mrc_verify" -d mrc2 -g 1 --timeout=600 \
		"$@" 10.0.0.1 >"$tmp/client$sfx.txt" 2>&1
	cli=$BG_PID
}

stop_verify() { kill -INT "$cli" 2>/dev/null; }

# conn_json: the QPs of h2's mrc2, with per-plane and per-EV detail.
conn_json() { M2 -s -j conn show dev mrc2; }
py() { python3 -c "$1"; }

# plane_share PLANE: that plane's share (percent) of mrc2's tx_bytes.
plane_share() {
	conn_json | py "
import json,sys
c=json.load(sys.stdin)[0]
tot=sum(p['tx_bytes'] for p in c['planes'])
print(next(100*p['tx_bytes']//max(tot,1) for p in c['planes'] if p['plane']==$1))"
}

require_cmd rdma ibv_devinfo python3 tc "$MRCCTL" "$VERBS_BIN/mrc_verify"
mrc_load || exit 1
check "two hosts h1/h2 with mrc1/mrc2 on e0 (plane 1)" mrc_two_hosts || exit 1
check "plane 2: veth e1 10.1.0.1 <-> 10.1.0.2" \
	veth_pair h1 e1 10.1.0.1/24 h2 e1 10.1.0.2/24
check "plane 3: veth e2 10.2.0.1 <-> 10.2.0.2" \
	veth_pair h1 e2 10.2.0.1/24 h2 e2 10.2.0.2/24
for h in 1 2; do
	check "h$h: planes 2 and 3 attached" eval \
		"\"$MRCCTL\" -n h$h plane add dev mrc$h netdev e1 id 2 &&
		 \"$MRCCTL\" -n h$h plane add dev mrc$h netdev e2 id 3"
done
check_output "probe without a route: plane 1 alone, one EV" \
	'^ev 0 plane 1 sport [0-9]+ via 10\.0\.0\.2 rtt [0-9]+(ns|us|ms)$' \
	M1 probe dev mrc1 to 10.0.0.2
check "h1: route to 10.0.0.2 over 3 planes" M1 route add 10.0.0.2 dev mrc1 \
	plane 1 via 10.0.0.2 plane 2 via 10.1.0.2 plane 3 via 10.2.0.2
check "h2: route to 10.0.0.1 over 3 planes" M2 route add 10.0.0.1 dev mrc2 \
	plane 1 via 10.0.0.1 plane 2 via 10.1.0.1 plane 3 via 10.2.0.1

check_output "conn show: no QPs yet, no output" '^$' M1 conn show

# --- probes before any QP ---------------------------------------------
check_output "probe: 48 paths of the route answer (16 per plane)" \
	'^48$' eval "\"$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 | grep -c ' rtt '"
check_output "probe: plane 2's EVs go via 10.1.0.2" \
	'^ev 1 plane 2 sport [0-9]+ via 10\.1\.0\.2 rtt [0-9]+(ns|us|ms)$' \
	M1 probe dev mrc1 to 10.0.0.2
check_output "probe: one explicit EV (-j)" \
	'^\[\{"ev":0,"plane":3,"sport":50000,"via":"10\.2\.0\.2","rtt_ns":[0-9]+\}\]$' \
	M1 -j probe dev mrc1 to 10.0.0.2 ev 50000 plane 3
EVS3="ev plane 1 sport 49152 ev plane 2 sport 49153 ev plane 3 sport 49154"
# probe_evs OPTION...: h1's batch of EVS3 toward h2.
probe_evs() { "$MRCCTL" -n h1 "$@" probe dev mrc1 to 10.0.0.2 $EVS3; }
RTT_RE='rtt [0-9]+(ns|us|ms) via-plane'
check_output "probe batch: plane 1's EV answered on plane 1" \
	"^ev 0 plane 1 sport 49152 $RTT_RE 1( svc [0-9]+(ns|us|ms))?\$" probe_evs
check_output "probe batch: all three EVs answered, each on its plane" '^3$' \
	eval "probe_evs | grep -cE '^ev ([0-2]) plane ([1-3]) sport 4915[2-4] $RTT_RE [1-3]'"
check_output "probe batch: -j" \
	'^\[\{"ev":0,"plane":1,"sport":49152,"rtt_ns":[0-9]+,"answer_plane":1(,"svc_ns":[0-9]+)?\},' \
	probe_evs -j
check_output "probe batch: from h1's own address" "^ev 2 plane 3 sport 49154 $RTT_RE 3" \
	M1 probe dev mrc1 to 10.0.0.2 from 10.0.0.1 $EVS3
check_output_fail "probe batch: from an address not the instance's" \
	"saddr is not one of the instance's GIDs" \
	M1 probe dev mrc1 to 10.0.0.2 from 10.0.0.2 ev plane 1 sport 49152
check_output_fail "probe batch: STEV toward IPv4" "need an IPv6 peer" \
	M1 probe dev mrc1 to 10.0.0.2 ev plane 1 stev 0x12345678
check_output_fail "probe batch: 'ev plane N' without its EV is a usage error" \
	"needs 'sport P', 'stev V' or 'sid ADDR'" M1 probe dev mrc1 to 10.0.0.2 ev plane 1
blackhole h1 e1 on
check_output "probe batch: the blackholed plane's EV times out" \
	'^ev 1 plane 2 sport 49153 timeout$' \
	eval "\"\$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 $EVS3 timeout 200"
check_output "probe batch: ... while the other two answer" '^2$' \
	eval "\"\$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 $EVS3 timeout 200 | grep -c ' rtt '"
check_output "probe: a blackholed plane times out" \
	'^ev 0 plane 2 sport 50000 via 10\.1\.0\.2 timeout$' \
	eval "\"$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 ev 50000 plane 2 timeout 200; true"
check_fail "probe: exit 1 when no path answered" \
	M1 probe dev mrc1 to 10.0.0.2 ev 50000 plane 2 timeout 200
check_output "probe: the other planes still answer" '^32$' \
	eval "\"$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 timeout 300 | grep -c ' rtt '"
blackhole h1 e1 off

# --- bad requests ------------------------------------------------------
check_output_fail "probe: plane 17 refused" 'plane out of range \(1\.\.16\)' \
	M1 probe dev mrc1 to 10.0.0.2 ev 5 plane 17
check_output_fail "probe: timeout 0 refused" 'timeout out of range' \
	M1 probe dev mrc1 to 10.0.0.2 timeout 0
check_output_fail "probe: timeout over 60 s refused" 'timeout out of range' \
	M1 probe dev mrc1 to 10.0.0.2 timeout 60001
check_output_fail "probe: unknown device" 'no such MRC device' \
	M1 probe dev nosuch to 10.0.0.2
check_output_fail "probe: unknown EV profile" 'no such EV profile' \
	M1 probe dev mrc1 to 10.0.0.2 ev-profile 99
check_output_fail "probe: STEV/SRV6 need IPv6 (profile 5 is stev)" \
	'need an IPv6 peer' eval "\"$MRCCTL\" -n h1 ev-profile add dev mrc1 id 5 \
	mode auto format stev count 4 planes 1 && \"$MRCCTL\" -n h1 ev-profile \
	set dev mrc1 id 5 state offline && \"$MRCCTL\" -n h1 ev-profile set \
	dev mrc1 id 5 state online && \"$MRCCTL\" -n h1 probe dev mrc1 to \
	10.0.0.2 ev-profile 5"
check_output_fail "probe: 'ev' without 'plane' is a usage error" \
	"'ev PORT' and 'plane N' go together" M1 probe dev mrc1 to 10.0.0.2 ev 5
check_output_fail "probe: port 0 is a usage error" 'UDP source port' \
	M1 probe dev mrc1 to 10.0.0.2 ev 0 plane 1
check_output_fail "conn show: unknown QP" 'no such QP' M1 conn show qpn 12345
check_output_fail "conn show: unknown device" 'no such MRC device' \
	M1 conn show dev nosuch
check_output_fail "conn show qpn: not a number" 'invalid qpn' \
	M1 conn show qpn x

# --- a transfer: conn show, spreading, events ---------------------------
ns_bg h2 "$MRCCTL" monitor >"$mon" 2>&1
start_verify "" --until-stopped --count=200 --min-size=256K --max-size=1M

check "a QP appears in conn show" wait_for 30 eval \
	"\"$MRCCTL\" -n h2 conn show dev mrc2 | grep -q 'state RTS'"
check_output "conn show: the QP line" \
	'^dev mrc2 qpn [0-9]+ peer 10\.0\.0\.1 dest_qpn [0-9]+ state RTS ev_profile 0 cc_profile 0 status ok snd_una [0-9]+ snd_nxt [0-9]+ rcv_nxt [0-9]+ inflight [0-9]+ cwnd [0-9]+ srtt [0-9]+(ns|us|ms) rto [0-9]+(ns|us|ms) evs 48 evs_usable [0-9]+ evs_bad [0-9]+ evs_denied 0$' \
	M2 conn show dev mrc2
check_output "conn show -s: 3 planes of 16 EVs" '^3 48$' eval \
	"\"$MRCCTL\" -n h2 -s -j conn show dev mrc2 | python3 -c 'import json,sys; c=json.load(sys.stdin)[0]; print(len(c[\"planes\"]), len(c[\"evs\"]))'"
check_output "conn show -s: an EV line" \
	'^    ev 0 plane 1 sport [0-9]+ state (good|assumed_bad) rtt [0-9]+(ns|us|ms) tx_pkts [0-9]+ tx_bytes [0-9]+ retx_pkts [0-9]+ lost_pkts [0-9]+ ecn_marks [0-9]+$' \
	M2 -s conn show dev mrc2
qpn=$(conn_json | py 'import json,sys; print(json.load(sys.stdin)[0]["qpn"])')
check_output "conn show qpn $qpn: that QP alone" "^dev mrc2 qpn $qpn " \
	M2 conn show dev mrc2 qpn "$qpn"
sleep 3
for p in 1 2 3; do
	check_output "plane $p carries 20..47% of the bytes" '^(2[0-9]|3[0-9]|4[0-7])$' \
		plane_share $p
done

# plane_tx P: packets mrc2's QP sent on plane P so far.
plane_tx() {
	conn_json | py "import json,sys; c=json.load(sys.stdin)[0]; print(next(p['tx_pkts'] for p in c['planes'] if p['plane']==$1))"
}
check "plane 3 carrier down on h2" ip -n h2 link set e2 down
check "monitor: plane down event" wait_line "$mon" '^plane down dev mrc2 id 3 '
sleep 2
b3=$(plane_tx 3) b1=$(plane_tx 1)
sleep 2
a3=$(plane_tx 3) a1=$(plane_tx 1)
check "a down plane carries nothing ($b3 -> $a3 packets)" test "$b3" -eq "$a3"
check "... while plane 1 does ($b1 -> $a1 packets)" test "$a1" -gt "$b1"
check "plane 3 carrier up" ip -n h2 link set e2 up
check "monitor: plane up event" wait_line "$mon" '^plane up dev mrc2 id 3 '

# h1's side of the QP: its packets on plane P (READ responses are data).
plane_tx1() {
	M1 -s -j conn show dev mrc1 | py "import json,sys; c=json.load(sys.stdin)[0]; print(next(p['tx_pkts'] for p in c['planes'] if p['plane']==$1))"
}
check "plane 3 admin down on h2 (mrcctl plane set)" \
	M2 plane set dev mrc2 id 3 down
check "monitor: plane down event (admin)" \
	wait_line "$mon" '^plane down dev mrc2 id 3 .*admin down'
sleep 2
b3=$(plane_tx 3) p3=$(plane_tx1 3) p1=$(plane_tx1 1)
sleep 3
a3=$(plane_tx 3) q3=$(plane_tx1 3) q1=$(plane_tx1 1)
check "h2 stops sending on its admin-down plane ($b3 -> $a3)" test "$b3" -eq "$a3"
check "the peer h1 stops too: PORT_STATUS told it ($p3 -> $q3)" test "$p3" -eq "$q3"
check "... while h1 still sends on plane 1 ($p1 -> $q1)" test "$q1" -gt "$p1"
check "plane 3 admin up on h2" M2 plane set dev mrc2 id 3 up
check "monitor: plane up event (admin)" \
	wait_line "$mon" '^plane up dev mrc2 id 3 .*admin up oper up'
sleep 2
p3=$(plane_tx1 3)
sleep 2
q3=$(plane_tx1 3)
check "h1 uses plane 3 again ($p3 -> $q3)" test "$q3" -gt "$p3"

blackhole h2 e1 on
check "blackholed plane 2: its EVs turn assumed_bad (monitor)" \
	wait_line "$mon" '^ev state dev mrc2 qpn [0-9]+ peer 10\.0\.0\.1 ev_profile 0 ev [0-9]+ plane 2 good -> assumed_bad reason (loss|timeout)$'
# plane_good P: how many of h2's EVs on plane P are good.
plane_good() {
	conn_json | py "import json,sys; c=json.load(sys.stdin)[0]; print(sum(1 for e in c['evs'] if e['plane']==$1 and e['state']=='good'))"
}
# Every EV of the plane turns bad as traffic finds it: wait for that state.
check "conn show: plane 2 has no usable EV" wait_for 30 eval '[ "$(plane_good 2)" = 0 ]'
diag "plane 2 good EVs now: $(plane_good 2)"
blackhole h2 e1 off
check "blackhole gone: probes bring plane 2's EVs back to good" \
	wait_line "$mon" '^ev state dev mrc2 .* plane 2 assumed_bad -> good reason probe_ok rtt [0-9]+(ns|us|ms)$'

stop_verify
wait "$cli"
check "the transfer completes (client)" test $? -eq 0
wait "$srv"
check "... (server)" test $? -eq 0
check_output "... verified: no failed completion, no corrupted byte" \
	"$VERIFY_CLEAN_RE" cat "$tmp/client.txt"

# --- an EXP profile: explicit ports, live deny/allow ---------------------
for h in 1 2; do
	check "h$h: EXP profile 7: ports 50001..50006 on planes 1..3" eval \
		"\"$MRCCTL\" -n h$h ev-profile add dev mrc$h id 7 mode exp format udp \
		 ev plane 1 value 50001 ev plane 2 value 50002 ev plane 3 value 50003 \
		 ev plane 1 value 50004 ev plane 2 value 50005 ev plane 3 value 50006 &&
		 \"$MRCCTL\" -n h$h ev-profile set dev mrc$h id 7 state offline &&
		 \"$MRCCTL\" -n h$h ev-profile set dev mrc$h id 7 state online"
done
check "h1: route uses profile 7" M1 route set 10.0.0.2 dev mrc1 \
	plane 1 via 10.0.0.2 plane 2 via 10.1.0.2 plane 3 via 10.2.0.2 ev-profile 7
check "h2: route uses profile 7" M2 route set 10.0.0.1 dev mrc2 \
	plane 1 via 10.0.0.1 plane 2 via 10.1.0.1 plane 3 via 10.2.0.1 ev-profile 7
check_output "probe: the profile's 6 EVs answer" '^6$' eval \
	"\"$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 | grep -c ' rtt '"
check_output "probe ev-profile 0: the default 48" '^48$' eval \
	"\"$MRCCTL\" -n h1 probe dev mrc1 to 10.0.0.2 ev-profile 0 | grep -c ' rtt '"

start_verify 2 --until-stopped --count=100 --min-size=128K --max-size=512K
check "a QP of profile 7 appears" wait_for 30 eval \
	"\"$MRCCTL\" -n h2 conn show dev mrc2 | grep -q 'state RTS ev_profile 7'"
check_output "its EVs carry the profile's ports" \
	'^    ev 5 plane 3 sport 50006 state ' M2 -s conn show dev mrc2
qpn=$(conn_json | py 'import json,sys; print(json.load(sys.stdin)[0]["qpn"])')
check "deny EV 1 of QP $qpn only" M2 ev-profile ev deny dev mrc2 profile 7 \
	index 1 qpn "$qpn"
check_output "... that QP shows it denied" '^    ev 1 plane 2 sport 50002 state denied ' \
	M2 -s conn show dev mrc2
check_output "... the profile does not" '^ *index 1 plane 2 value 50002 state unknown$' \
	M2 ev show dev mrc2 profile 7
check "allow it again" M2 ev-profile ev allow dev mrc2 profile 7 index 1 qpn "$qpn"
check_output "... good again" '^    ev 1 plane 2 sport 50002 state good ' \
	M2 -s conn show dev mrc2
check "deny EV 2 in the profile (and its live copies)" \
	M2 ev-profile ev deny dev mrc2 profile 7 index 2
check_output "... the live QP shows it denied" '^    ev 2 plane 3 sport 50003 state denied ' \
	M2 -s conn show dev mrc2
check_output_fail "per-QP change of an unknown QP" 'no live QP' \
	M2 ev-profile ev deny dev mrc2 profile 7 index 1 qpn 999
check_output_fail "per-QP replace onto another plane" 'no live QP' \
	M2 ev-profile ev replace dev mrc2 profile 7 index 1 plane 1 value 50100 qpn "$qpn"
# A live QP's copy obeys the profile's replace rules: an invalid value
# (port 0) is refused with the profile's message instead of installing a
# zeroed header, and the QP's EV stays as it was.
check_output_fail "per-QP replace with port 0: EINVAL, the profile's reason" \
	'^mrcctl: EV value not usable \(port 0, SID ::, ::1, multicast\) \(Invalid argument\)$' \
	M2 ev-profile ev replace dev mrc2 profile 7 index 1 plane 2 value 0 qpn "$qpn"
check_output "... the QP's EV 1 keeps its port" '^    ev 1 plane 2 sport 50002 ' \
	M2 -s conn show dev mrc2
check_output_fail "per-QP replace with another EV's value: EEXIST" \
	'^mrcctl: duplicate EV \(same plane and value\) \(File exists\)$' \
	M2 ev-profile ev replace dev mrc2 profile 7 index 1 plane 2 value 50005 qpn "$qpn"
check "per-QP replace on the EV's plane" \
	M2 ev-profile ev replace dev mrc2 profile 7 index 1 plane 2 value 50100 qpn "$qpn"
check_output "... the QP's EV 1 uses port 50100" '^    ev 1 plane 2 sport 50100 ' \
	M2 -s conn show dev mrc2

# The profile's min-active and event mask reach the live QP at once.
# Plane 2 blackholed, its two EVs (1, 4) turn bad: 3 usable (EV 2 is
# denied).  min-active 4 brings one back (reason min_active), reported;
# with the event mask "none", min-active 5 brings the other back and
# nothing is reported.
p7_events() { grep -c '^ev state dev mrc2 .* ev_profile 7 ' "$mon"; }
blackhole h2 e1 on
check "profile 7, plane 2 blackholed: its EVs turn bad" \
	wait_for 30 eval '[ "$(plane_good 2)" = 0 ]'
check "ev-profile set min-active 4" M2 ev-profile set dev mrc2 id 7 min-active 4
check "... one of plane 2's EVs is good again at once" test "$(plane_good 2)" = 1
check "... reported (reason min_active)" wait_line "$mon" \
	'^ev state dev mrc2 .* ev_profile 7 ev [14] plane 2 assumed_bad -> good reason min_active$'
check "ev-profile set events none" M2 ev-profile set dev mrc2 id 7 events none
n1=$(p7_events)
check "ev-profile set min-active 5" M2 ev-profile set dev mrc2 id 7 min-active 5
check "... both of plane 2's EVs are good" test "$(plane_good 2)" = 2
sleep 2
n2=$(p7_events)
check "... not reported: the mask is none ($n1 -> $n2 lines)" test "$n1" = "$n2"
blackhole h2 e1 off
check "ev-profile set events all, min-active 0" \
	M2 ev-profile set dev mrc2 id 7 events all min-active 0
stop_verify
wait "$cli"
check "the transfer with profile 7 completes" test $? -eq 0
check_output "... verified" "$VERIFY_CLEAN_RE" cat "$tmp/client2.txt"
wait "$srv"
check "... (server)" test $? -eq 0

done_testing
