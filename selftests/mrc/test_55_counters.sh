#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 300
#
# Counters: "mrcctl -s dev show" / "plane show" (text and JSON) and "rdma
# statistic show link" after ibv_rc_pingpong between two hosts (h1 mrc1,
# h2 mrc2): each side's transmit equals the other's receive plus its drops,
# plane 1 carries everything, rdma statistic shows the same names and
# values; then 1000 garbage UDP datagrams to h1's MRC port are counted as
# rx_malformed + rx_bad_icrc of h1's namespace, and only there.
. "$(dirname "$0")/lib.sh"

ITERS=50
GARBAGE=1000

# The drops of the receiving side that a sent packet can end in.
DROPS='rx_malformed rx_bad_icrc rx_no_qp rx_spoofed'

# snap NS DEV FILE: "mrcctl -j -s dev show dev DEV" in NS into FILE.
snap() {
	"$MRCCTL" -n "$1" -j -s dev show dev "$2" >"$3"
}

# jget FILE EXPR: python EXPR over the one instance d of FILE, where s is
# d["stats"] and p is plane 1's stats; prints the value.
jget() {
	python3 -S -c '
import json, sys
d = json.load(open(sys.argv[1]))[0]
s = d["stats"]
p = [x for x in d["planes"] if x["id"] == 1][0]["stats"]
print(eval(sys.argv[2]))' "$1" "$2"
}

# stable NS DEV: wait (up to 5 s) until the instance's counters stop moving
# (the last ACKs after the programs have exited).
stable() {
	local a b
	a=$("$MRCCTL" -n "$1" -j -s dev show dev "$2") || return 1
	for _ in $(seq 25); do
		sleep 0.2
		b=$("$MRCCTL" -n "$1" -j -s dev show dev "$2") || return 1
		[ "$a" = "$b" ] && return 0
		a=$b
	done
	return 1
}

# rdma_stat DEV NAME: counter NAME of "rdma statistic show link DEV/1".
rdma_stat() {
	local out
	out=$(rdma statistic show link "$1/1") || return 1
	grep -oE "(^| )$2 [0-9]+" <<<"$out" | awk '{ print $2 }'
}

# eq DESC A B: ok iff the numbers A and B are equal (and not empty).
eq() {
	check "$1 ($2 == $3)" test -n "$2" -a "$2" = "$3"
}

# ge DESC A B: ok iff A >= B.
ge() {
	check "$1 ($2 >= $3)" test -n "$2" -a "$2" -ge "$3"
}

no_counters_text() {
	local out
	out=$("$MRCCTL" -n h1 dev show) || return 1
	printf '%s\n' "$out"
	! grep -q _pkts <<<"$out"
}

no_counters_json() {
	"$MRCCTL" -n h1 -j dev show | python3 -S -c '
import json, sys
d = json.load(sys.stdin)[0]
sys.exit(1 if "stats" in d or any("stats" in p for p in d["planes"]) else 0)'
}

json_parses() {
	"$MRCCTL" -n h1 -j -s dev show | python3 -c 'import json,sys; json.load(sys.stdin)'
}

plane_json_stats() {
	"$MRCCTL" -n h1 -p -s plane show | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d[0]["stats"]["tx_pkts"] > 0 else 1)'
}

T=$(mktemp -d) || exit 1
trap '_mrc_cleanup 2>/dev/null; rm -rf "$T"' EXIT

require_cmd rdma ibv_devinfo ibv_rc_pingpong python3 ss "$MRCCTL"
mrc_load || done_testing
check "two hosts: $H1_DEV in h1, $H2_DEV in h2" mrc_two_hosts || done_testing

# --- before any traffic ----------------------------------------------------
check "mrcctl -j -s dev show in h1" snap h1 $H1_DEV "$T/h1.0"
eq "a new instance has sent nothing" "$(jget "$T/h1.0" 's["tx_pkts"] + s["rx_pkts"] + p["tx_pkts"]')" 0
check "mrcctl dev show without -s prints no counter" no_counters_text
check "mrcctl -j dev show without -s has no stats" no_counters_json

# --- traffic: ITERS SENDs each way ------------------------------------------
ns_exec h1 ibv_rc_pingpong -d $H1_DEV -g 1 -n $ITERS >"$T/server" 2>&1 &
server=$!
wait_output ':18515 ' ns_exec h1 ss -ltn >/dev/null
check "ibv_rc_pingpong client in h2 ($ITERS iterations)" \
	ns_exec h2 ibv_rc_pingpong -d $H2_DEV -g 1 -n $ITERS 10.0.0.1
wait "$server"
rc=$?
check_finished "ibv_rc_pingpong server in h1" "$rc" "$T/server" "" \
	ibv_rc_pingpong -d $H1_DEV

check "h1's counters settle" stable h1 $H1_DEV
check "h2's counters settle" stable h2 $H2_DEV
snap h1 $H1_DEV "$T/h1" && snap h2 $H2_DEV "$T/h2"
r1=$(rdma_stat $H1_DEV tx_pkts)
diag "h1: $(cat "$T/h1")"
diag "h2: $(cat "$T/h2")"

for h in h1 h2; do
	for c in tx_pkts rx_pkts; do
		ge "$h $c: at least one packet per SEND" \
			"$(jget "$T/$h" "s['$c']")" $((2 * ITERS))
	done
	for c in tx_bytes rx_bytes; do
		ge "$h $c is not zero" "$(jget "$T/$h" "s['$c']")" 1
	done
	for c in tx_pkts tx_bytes rx_pkts rx_bytes; do
		eq "$h plane 1 $c is the instance's (one plane)" \
			"$(jget "$T/$h" "p['$c']")" "$(jget "$T/$h" "s['$c']")"
	done
done

# What one side sent, the other received or dropped (veth loses nothing).
drops="sum(s[c] for c in '$DROPS'.split())"
eq "h1 rx_pkts + drops == h2 tx_pkts" \
	"$(jget "$T/h1" "s['rx_pkts'] + $drops")" "$(jget "$T/h2" "s['tx_pkts']")"
eq "h2 rx_pkts + drops == h1 tx_pkts" \
	"$(jget "$T/h2" "s['rx_pkts'] + $drops")" "$(jget "$T/h1" "s['tx_pkts']")"

# --- rdma statistic ---------------------------------------------------------
eq "rdma statistic show link $H1_DEV/1: tx_pkts as mrcctl" \
	"$r1" "$(jget "$T/h1" "s['tx_pkts']")"
# Every counter under the same name and with the same value (traffic has
# stopped, so both reads see the same numbers).
rdma statistic show link $H1_DEV/1 >"$T/rdma" 2>&1
diag "$(cat "$T/rdma")"
check "rdma statistic: every mrcctl counter, same name and value" \
	python3 -S -c '
import json, re, sys
s = json.load(open(sys.argv[1]))[0]["stats"]
text = open(sys.argv[2]).read()
r = dict((m.group(1), int(m.group(2)))
	 for m in re.finditer(r"(\w+) (\d+)", text))
bad = [k for k in s if r.get(k) != s[k]]
print("differ:", bad)
sys.exit(1 if bad or len(s) < 17 else 0)' "$T/h1" "$T/rdma"

# --- output formats ---------------------------------------------------------
check "mrcctl -j -s dev show parses as JSON" json_parses
check "mrcctl -p -s plane show parses as JSON, with plane stats" \
	plane_json_stats
check_output "mrcctl -s dev show: a header line of counter names" \
	'^ +tx_pkts +tx_bytes +retx_pkts +nack_tx +tx_drop$' \
	"$MRCCTL" -n h1 -s dev show dev $H1_DEV
check_output "... and the namespace drops" \
	'^ +rx_malformed +rx_bad_icrc +rx_no_qp$' \
	"$MRCCTL" -n h1 -s dev show dev $H1_DEV
check_output "mrcctl -s plane show: plane counters under the plane" \
	'^ +rx_pkts +rx_bytes$' "$MRCCTL" -n h1 -s plane show

# --- garbage to the MRC port ------------------------------------------------
# Payloads of 1..1400 bytes: an empty UDP datagram is not handed to the
# encapsulation handler at all (udp_queue_rcv_one_skb() keeps it), and
# nothing above the veth MTU so that no datagram needs reassembly.
bad="s['rx_malformed'] + s['rx_bad_icrc']"
snap h1 $H1_DEV "$T/h1.g0" && snap h2 $H2_DEV "$T/h2.g0"
b1=$(jget "$T/h1.g0" "$bad")
check "send $GARBAGE garbage datagrams from h2 to 10.0.0.1:4791" \
	ns_exec h2 python3 -S -c '
import os, random, socket, sys, time
n = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(n):
	s.sendto(os.urandom(random.randint(1, 1400)), ("10.0.0.1", 4791))
	if i % 100 == 99:
		time.sleep(0.01)' $GARBAGE
check "h1's counters settle after the garbage" stable h1 $H1_DEV
snap h1 $H1_DEV "$T/h1.g1" && snap h2 $H2_DEV "$T/h2.g1"
a1=$(jget "$T/h1.g1" "$bad")
if ! eq "h1 rx_malformed + rx_bad_icrc grew by $GARBAGE" \
	"$((a1 - b1))" $GARBAGE; then
	diag "$(ns_exec h1 cat /proc/net/snmp | grep Udp:)"
	diag "$(ns_exec h1 ip -s link show e0)"
fi
eq "h1 rx_no_qp did not move" "$(jget "$T/h1.g1" "s['rx_no_qp']")" \
	"$(jget "$T/h1.g0" "s['rx_no_qp']")"
eq "h1 rx_pkts did not move" "$(jget "$T/h1.g1" "s['rx_pkts']")" \
	"$(jget "$T/h1.g0" "s['rx_pkts']")"
eq "h2's namespace saw none of it" "$(jget "$T/h2.g1" "$bad")" \
	"$(jget "$T/h2.g0" "$bad")"
eq "rdma statistic: rx_malformed as mrcctl" \
	"$(rdma_stat $H1_DEV rx_malformed)" "$(jget "$T/h1.g1" "s['rx_malformed']")"

check "rdma link del $H1_DEV" rdma link del $H1_DEV
check "rdma link del $H2_DEV" rdma link del $H2_DEV
check "rmmod" mrc_unload

done_testing
