#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 360
#
# Packet trimming end to end (lib_fabric.sh fabric_leafspine 1 1: h1 and
# h2 joined by two leaves and a spine; h2 sends to h1).  The leaf in front
# of h1 runs the trimming switch of the test fabrics on its egress to h1
# (tools/bpf/mrc_trim.bpf.c, tc clsact, direct action): it selects every
# ${EVERY}th MRC data packet and either trims it (cut after the MRC
# headers, the trimmed DSCP set, IP/UDP lengths and checksums fixed:
# Documentation/networking/mrc.rst, "Trimmed packets") or drops it.
#   1. trim: a verified mrc_verify transfer completes with zero corrupted
#      bytes and zero failed completions; h1 counts the trimmed packets
#      (rx_trimmed, at least as many as the switch trimmed less a few in
#      flight, none as malformed), and NACKs them (nack_tx), h2 gets the
#      NACKs and resends (nack_rx, retx_pkts).
#   2. drop: the same transfer (same seed, the same selection rule) with
#      the switch dropping instead.  It completes too, but every dropped
#      packet waits for the loss machinery (RACK's reorder allowance or
#      the ACK timeout): h2's connection declares at least half of the
#      dropped packets lost, and its losses plus ACK timeouts outnumber
#      those with trimming, where a NACK triggers the resend at once and
#      (almost) nothing is declared lost.
#   3. forged: WRITE headers with the trimmed DSCP to a QPN that does not
#      exist count as rx_no_qp, an ACK cut short with it as rx_malformed,
#      neither as rx_trimmed.
# Each transfer runs --until-stopped for WINDOW s; h2's connection
# counters (mrcctl -s -j conn show) and the switch's are read one right
# after the other while the QP still exists, then the transfer ends and
# is checked.  Wall time is only reported: this host is noisy.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

TRIM_OBJ=${TRIM_OBJ:-$REPO/build/bin/mrc_trim.bpf.o}
EVERY=20
TRIM_DEV=eh		# the leaf's interface toward h1
TRIM_NS=p1l1
VERIFY=(--ops=send,send_imm,write,write_imm --count=48 --min-size=16K
	--max-size=192K --seed=831)

require_cmd tc bpftool nsenter python3 "$MRCCTL" "$VERBS_BIN/mrc_verify"
[ -f "$TRIM_OBJ" ] || mrc_skip "no $TRIM_OBJ (make: clang -target bpf, libbpf-dev)"
fabric_setup "fabric: 1 plane x 1 spine" 1 1
check "routes over plane 1 on both hosts" fabric_routes
tmp=$(mktemp -d) || exit 1

# trim_load: the program on the leaf's egress toward h1 (tc from the
# initial mount namespace: nsenter switches the network namespace only).
trim_load() {
	nsenter --net="/var/run/netns/$TRIM_NS" tc qdisc replace dev "$TRIM_DEV" clsact &&
		nsenter --net="/var/run/netns/$TRIM_NS" tc filter replace dev "$TRIM_DEV" \
			egress pref 10 bpf da obj "$TRIM_OBJ" sec tc
}

trim_unload() {
	nsenter --net="/var/run/netns/$TRIM_NS" tc qdisc del dev "$TRIM_DEV" clsact
}

# trim_mode MODE EVERY: configure it (struct mrc_trim_cfg: mode 0 off,
# 1 trim, 2 drop; every_n; rate; burst; dscp; port) and zero its counters.
trim_mode() {
	local mode=$1 n=$2 dscp
	# The default where the module has no such parameter (to show
	# that the checks fail on a module that does not know trimming).
	dscp=$(cat /sys/module/mrc/parameters/trim_dscp 2>/dev/null || echo 7)
	# shellcheck disable=SC2046
	bpftool map update name mrc_trim_cfg key 0 0 0 0 value $(python3 -S -c '
import struct, sys
m, n, d = map(int, sys.argv[1:4])
print(" ".join(str(b) for b in struct.pack("<IIQQII", m, n, 0, 0, d, 4791)))' \
		"$mode" "$n" "$dscp") &&
		bpftool map update name mrc_trim_stats key 0 0 0 0 value $(printf '0 %.0s' $(seq 48))
}

# trim_stats: "DATA TRIMMED DROPPED CUT_BYTES" of the switch.
trim_stats() {
	bpftool -j map lookup name mrc_trim_stats key 0 0 0 0 | python3 -S -c '
import json, struct, sys
v = json.load(sys.stdin)
f = v.get("formatted", {}).get("value")
if f:
    print(f["data"], f["trimmed"], f["dropped"], f["cut_bytes"])
else:
    b = bytes(int(x, 16) for x in v["value"])
    print(*struct.unpack_from("<QQQQ", b))'
}

# dev_stat NS DEV NAME: counter NAME of instance DEV (empty if none).
dev_stat() {
	ns_exec "$1" "$MRCCTL" -j -s dev show dev "$2" 2>/dev/null | python3 -S -c '
import json, sys
try:
    print(json.load(sys.stdin)[0]["stats"][sys.argv[1]])
except Exception:
    pass' "$3"
}

# conn_counters: "TIMEOUTS LOST RETX TX EVS_BAD" summed over h2's
# connections (mrcctl -j -s conn show; zeros without one).
conn_counters() {
	"$MRCCTL" -n h2 -j -s conn show dev "$H2_DEV" 2>/dev/null | python3 -S -c '
import json, sys
t = [0, 0, 0, 0, 0]
try:
    cs = json.load(sys.stdin)
except Exception:
    cs = []
for c in cs:
    for i, k in enumerate(("timeouts", "lost_pkts", "retx_pkts", "tx_pkts",
                           "evs_bad")):
        t[i] += int(c.get(k, 0))
print(*t)'
}

# run_case MODE LABEL: the verified transfer (--until-stopped) through the
# switch in MODE for WINDOW s; then, while its QP still exists, h2's
# connection counters (c_timeouts c_lost c_retx c_tx c_bad) and the
# switch's (s_data, s_sel selected), taken one right after the other; then
# the transfer ends and both ends check it.
WINDOW=8
run_case() {
	local mode=$1 label=$2 sel_t sel_d
	check "$label: the switch set to mode $mode, every ${EVERY}th data packet" \
		trim_mode "$mode" "$EVERY"
	fab_verify_start "${VERIFY[@]}" --until-stopped ||
		diag "mrc_verify did not report its start"
	sleep "$WINDOW"
	check "$label: mrc_verify still runs after $WINDOW s" fab_verify_running
	read -r c_timeouts c_lost c_retx c_tx c_bad <<<"$(conn_counters)"
	read -r s_data sel_t sel_d _ <<<"$(trim_stats)"
	s_sel=$((sel_t + sel_d))
	fab_verify_stop
	fab_verify_wait "$label: verified transfer"
	read -r _ sel_t sel_d _ <<<"$(trim_stats)"
	f_sel=$((sel_t + sel_d))
	diag "$label: in $WINDOW s the switch saw $s_data data packets, selected $s_sel;" \
		"h2's connection then: tx_pkts $c_tx, retx_pkts $c_retx, lost_pkts $c_lost," \
		"timeouts $c_timeouts, evs_bad $c_bad; $f_sel selected until the end"
}

check "the trimming switch loads on $TRIM_NS:$TRIM_DEV (tc egress, bpf da)" trim_load
check "trim_dscp is 7 by default" test "$(cat /sys/module/mrc/parameters/trim_dscp)" = 7

# --- 1. trim --------------------------------------------------------------------
declare -A a b
for k in rx_trimmed nack_tx rx_malformed rx_bad_icrc; do a[h1_$k]=$(dev_stat h1 "$H1_DEV" $k); done
for k in nack_rx retx_pkts; do a[h2_$k]=$(dev_stat h2 "$H2_DEV" $k); done
run_case 1 "trim"
trim_t=$c_timeouts trim_lost=$c_lost trim_sel=$s_sel trimmed=$f_sel
for k in rx_trimmed nack_tx rx_malformed rx_bad_icrc; do b[h1_$k]=$(dev_stat h1 "$H1_DEV" $k); done
for k in nack_rx retx_pkts; do b[h2_$k]=$(dev_stat h2 "$H2_DEV" $k); done
d_trim=$((${b[h1_rx_trimmed]:-0} - ${a[h1_rx_trimmed]:-0}))
diag "h1: rx_trimmed ${a[h1_rx_trimmed]:-none} -> ${b[h1_rx_trimmed]:-none}," \
	"nack_tx ${a[h1_nack_tx]} -> ${b[h1_nack_tx]}, rx_malformed ${a[h1_rx_malformed]} -> ${b[h1_rx_malformed]};" \
	"h2: nack_rx ${a[h2_nack_rx]} -> ${b[h2_nack_rx]}, retx_pkts ${a[h2_retx_pkts]} -> ${b[h2_retx_pkts]}"
check "the switch trimmed packets ($trimmed)" test "$trimmed" -gt 10
check "h1 has an rx_trimmed counter" test -n "${b[h1_rx_trimmed]}"
# A trimmed packet can arrive after its connection ended (a few).
check "h1 counted the trimmed packets (rx_trimmed +$d_trim of $trimmed trimmed)" \
	test "$d_trim" -ge $((trimmed * 9 / 10)) -a "$d_trim" -le "$trimmed"
check "no trimmed packet was taken for malformed or corrupt" \
	test "${b[h1_rx_malformed]}" = "${a[h1_rx_malformed]}" -a \
	"${b[h1_rx_bad_icrc]}" = "${a[h1_rx_bad_icrc]}"
check "h1 NACKed them (nack_tx +$((b[h1_nack_tx] - a[h1_nack_tx])))" \
	test $((b[h1_nack_tx] - a[h1_nack_tx])) -ge $((d_trim * 9 / 10))
check "h2 got the NACKs (nack_rx +$((b[h2_nack_rx] - a[h2_nack_rx])))" \
	test $((b[h2_nack_rx] - a[h2_nack_rx])) -ge $((d_trim * 9 / 10))
check "h2 resent the trimmed packets (retx_pkts +$((b[h2_retx_pkts] - a[h2_retx_pkts])))" \
	test $((b[h2_retx_pkts] - a[h2_retx_pkts])) -ge $((d_trim * 9 / 10))

# --- 2. drop the same packets -----------------------------------------------------
run_case 2 "drop"
drop_t=$c_timeouts drop_lost=$c_lost drop_sel=$s_sel dropped=$f_sel
diag "after $WINDOW s: trim: $trim_sel trimmed, $trim_lost declared lost, $trim_t ACK timeouts;" \
	"drop: $drop_sel dropped, $drop_lost declared lost, $drop_t ACK timeouts"
check "the switch dropped packets ($dropped)" test "$dropped" -gt 10
check "trimming: (almost) nothing declared lost ($trim_lost <= $((trim_sel / 10 + 2)))" \
	test "$trim_lost" -le $((trim_sel / 10 + 2))
check "dropping: the drops were recovered as losses ($drop_lost >= $((drop_sel / 2)))" \
	test "$drop_lost" -ge $((drop_sel / 2))
check "dropping: more ACK timeouts ($drop_t > $trim_t)" test "$drop_t" -gt "$trim_t"
check "dropping waits for loss detection more: lost+timeouts $((drop_lost + drop_t)) > $((trim_lost + trim_t)) (trimming)" \
	test $((drop_lost + drop_t)) -gt $((trim_lost + trim_t))

check "the switch goes" trim_unload

# --- 3. forged trimmed packets ---------------------------------------------------
# From h2 with the trimmed DSCP, straight to h1's MRC port: the headers of
# a WRITE of 1024 bytes to a QPN that does not exist (rx_no_qp), and an
# ACK cut short (rx_malformed: control packets are never trimmed).
FORGE_PY='
import socket, struct, sys
dst, dscp = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, dscp << 2)
# common header: version, opcode, flags, dqpn, sqpn, psn, ev, plane,
# reserved, ts, payload_len, reserved
write = struct.pack("!BBHIIIHBBIHH", 1, 3, 3, 0x5a5a5a, 0x123456, 100, 0, 1,
                    0, 0, 1024, 0)
write += struct.pack("!QIIII", 0x1000, 0x11, 0, 0, 1024)
s.sendto(write, (dst, 4791))
ack = struct.pack("!BBHIIIHBBIHH", 1, 0x10, 0, 0x5a5a5a, 0x123456, 100, 0, 1,
                  0, 0, 0, 0)
s.sendto(ack + bytes(20), (dst, 4791))
'
for k in rx_trimmed rx_no_qp rx_malformed; do a[h1_$k]=$(dev_stat h1 "$H1_DEV" $k); done
check "forged trimmed packets sent from h2" \
	ns_exec h2 python3 -S -c "$FORGE_PY" "$(fab_addr 1 1)" "$(cat /sys/module/mrc/parameters/trim_dscp 2>/dev/null || echo 7)"
forged_seen() {
	[ "$(dev_stat h1 "$H1_DEV" rx_no_qp)" -gt "${a[h1_rx_no_qp]}" ] &&
		[ "$(dev_stat h1 "$H1_DEV" rx_malformed)" -gt "${a[h1_rx_malformed]}" ]
}
wait_for 10 forged_seen
for k in rx_trimmed rx_no_qp rx_malformed; do b[h1_$k]=$(dev_stat h1 "$H1_DEV" $k); done
check "forged WRITE headers to no QP: rx_no_qp ${a[h1_rx_no_qp]} -> ${b[h1_rx_no_qp]}" \
	test "${b[h1_rx_no_qp]}" -eq $((a[h1_rx_no_qp] + 1))
check "ACK cut short with the trimmed DSCP: rx_malformed ${a[h1_rx_malformed]} -> ${b[h1_rx_malformed]}" \
	test "${b[h1_rx_malformed]}" -eq $((a[h1_rx_malformed] + 1))
check "neither counted as trimmed (rx_trimmed ${a[h1_rx_trimmed]} -> ${b[h1_rx_trimmed]})" \
	test "${b[h1_rx_trimmed]}" = "${a[h1_rx_trimmed]}"
rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
