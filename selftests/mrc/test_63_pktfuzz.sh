#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 900
#
# Hostile packets from a third host while a verified transfer runs: h1 and
# h2 (mrc_two_hosts) run mrc_verify; an attacker namespace h3, joined to
# h1 by its own veth (h3 e1 10.0.9.3 <-> h1 e1 10.0.9.1), sends h1's UDP
# port mrc_pktfuzz datagrams: random bytes, mutated MRC packets (bit flips,
# truncation, extension, wrong ICRC), replays, and valid packets aimed at
# the live connection's QPNs.  The transfer must stay clean (0 corrupted
# bytes, 0 failed completions), the kernel must not oops (run.sh reads
# dmesg) and mrc's drop counters must account for the invalid packets.
#
#   MRC_PKTFUZZ_COUNT  datagrams to send (default 100000)
#   MRC_PKTFUZZ_SEED   fuzzer seed (default 1); the run is deterministic
#   MRC_PKTFUZZ_RATE   packets per second (default 0: as fast as possible)
#   MRC_PKTFUZZ, MRC_VERIFY  the programs (default: build/bin/...)
set -u
. "$(dirname "$0")/lib.sh"

FUZZ=${MRC_PKTFUZZ:-$REPO/build/bin/mrc_pktfuzz}
VERIFY=${MRC_VERIFY:-$REPO/build/bin/mrc_verify}
count=${MRC_PKTFUZZ_COUNT:-100000}
seed=${MRC_PKTFUZZ_SEED:-1}
rate=${MRC_PKTFUZZ_RATE:-0}
# The client repeats its plan until it is stopped after the fuzzer, so
# the attack overlaps the transfer however fast the host is.
verify_args=(--count=2000 --max-size=65536 --timeout=600)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_63.XXXXXX") || exit 1

# udp_counters NS: "InDatagrams InErrors NoPorts" of the namespace's UDP
# MIB (/proc/net/snmp is per network namespace).
udp_counters() {
	ns_exec "$1" cat /proc/net/snmp | awk '
		$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) col[$i] = i; h = 1; next }
		$1 == "Udp:" { print $col["InDatagrams"], $col["InErrors"], $col["NoPorts"]; exit }'
}

# mrc_drop_sum NS DEV: the sum of DEV's counters (in NS) whose names contain
# "drop", "bad", "err" or "malformed" (rx_malformed + rx_bad_icrc are where
# the decoder's rejects go; rx_no_qp and rx_spoofed count valid packets and
# are left out), from "mrcctl -j -s dev show": the instance's own "stats",
# not its planes' (they would count twice).  Prints nothing when there is
# no such counter.
mrc_drop_sum() {
	ns_exec "$1" "$MRCCTL" -j -s dev show dev "$2" 2>/dev/null | python3 -S -c '
import json, re, sys
try:
    d = json.load(sys.stdin)[0]
except Exception:
    sys.exit(0)
f = {k: v for k, v in d.get("stats", {}).items()
     if re.search("drop|bad|err|malformed", k) and isinstance(v, int)}
if f:
    print(sum(f.values()))'
}

# check_mrc_drop_counters BASE INVALID: mrc's own drop counters in h1 grew by
# at least INVALID (the datagrams mrcproto's decoder rejects; mrc runs the
# same decoder) since they read BASE.  A build without such counters is a
# failure, not a skip: the kernel must account for every packet it drops.
check_mrc_drop_counters() {
	local base=$1 invalid=$2 now desc
	desc="mrc drop counters (mrcctl -s dev show) account for the $invalid invalid packets"
	now=$(mrc_drop_sum h1 "$H1_DEV")
	if [ -z "$now" ]; then
		not_ok "$desc"
		diag "mrcctl -j -s dev show dev $H1_DEV (in h1) has no counter named *drop*, *bad*, *err* or *malformed*:"
		ns_exec h1 "$MRCCTL" -s dev show dev "$H1_DEV" 2>&1 | head -n 30 | sed 's/^/#   /'
		return 1
	fi
	if [ $((now - ${base:-0})) -ge "$invalid" ]; then
		ok "$desc ($((now - ${base:-0})) counted)"
		return 0
	fi
	not_ok "$desc"
	diag "drop/bad/err counters grew by $((now - ${base:-0})) (from ${base:-0} to $now), expected >= $invalid:"
	ns_exec h1 "$MRCCTL" -s dev show dev "$H1_DEV" 2>&1 | head -n 30 | sed 's/^/#   /'
	return 1
}

# qpns_of NS DEV: the local and remote QPNs of the RC QPs of DEV in NS, comma
# separated (rdma's resource tracking works for every RDMA device).
qpns_of() {
	ns_exec "$1" rdma resource show qp link "$2/1" 2>/dev/null | awk '
		/type RC/ {
			for (i = 1; i < NF; i++)
				if ($i == "lqpn" || $i == "rqpn")
					q[$(i + 1)] = 1
		}
		END { s = ""; for (x in q) s = s (s == "" ? "" : ",") x; print s }'
}

require_cmd python3 ss "$MRCCTL"
mrc_attack_setup "$FUZZ" "$VERIFY"
check "h3 reaches h1" ns_exec h3 ping -c 1 -W 5 10.0.9.1

# The verified transfer, in the background: server in h1, client in h2.
ns_exec h1 "$VERIFY" -d "$H1_DEV" -g 1 "${verify_args[@]}" >"$tmp/server" 2>&1 &
server=$!
# The client needs the server's out-of-band listener.
check "mrc_verify server listens in h1" \
	wait_output . ns_exec h1 ss -Hltn
# ns_bg: $BG_PID is mrc_verify itself (ip netns exec execs it), for SIGINT.
ns_bg h2 "$VERIFY" -d "$H2_DEV" -g 1 "${verify_args[@]}" --until-stopped \
	10.0.0.1 >"$tmp/client" 2>&1
client=$BG_PID

# Aim the valid packets at the live connection once its QPs exist.
# Bounded by time, not tries: each rdma call is slow under TCG.
qpns=
qp_deadline=$((SECONDS + 10))
while [ $SECONDS -lt $qp_deadline ]; do
	# Each side's view: a responder may not report its remote QPN.
	qpns=$( { qpns_of h1 "$H1_DEV"; qpns_of h2 "$H2_DEV"; } | tr ',' '\n' |
		grep -v '^0*$' | sort -un | paste -sd, -)
	[ -n "$qpns" ] && break
	kill -0 "$client" 2>/dev/null || break
	sleep 0.2
done
# QP 1 too: the MAD layer's GSI QP, a UD QP every instance has, which
# takes datagrams from anyone (rdma_cm's MADs).
if [ -n "$qpns" ]; then
	diag "the connection's QPNs: $qpns, and QP 1 (GSI)"
	qpn_arg=(--qpn "1,$qpns")
else
	diag "no RC QP of $H1_DEV in h1 seen (rdma resource show qp): QP 1 (GSI) and random QPNs"
	qpn_arg=(--qpn 1)
fi

read -r in0 err0 noports0 < <(udp_counters h1)
drops0=$(mrc_drop_sum h1 "$H1_DEV")
fuzz_start=$SECONDS
ns_exec h3 "$FUZZ" --count "$count" --seed "$seed" --rate "$rate" \
	"${qpn_arg[@]}" 10.0.9.1 >"$tmp/fuzz" 2>&1
frc=$?
desc="mrc_pktfuzz sends $count datagrams from h3 to 10.0.9.1:4791 ($((SECONDS - fuzz_start)) s)"
if [ $frc -eq 0 ] &&
	grep -Eq "^mrc_pktfuzz: sent $count, invalid [0-9]+, valid [0-9]+, errors 0$" "$tmp/fuzz"; then
	ok "$desc"
else
	not_ok "$desc"
	diag "exit status $frc"
fi
sed 's/^/#   /' "$tmp/fuzz"
invalid=$(sed -n 's/^mrc_pktfuzz: sent [0-9]*, invalid \([0-9]*\),.*/\1/p' "$tmp/fuzz")
read -r in1 err1 noports1 < <(udp_counters h1)
check "the transfer still runs when the fuzzer ends" kill -0 "$client"
# SIGINT: the client ends after its current batch, the server with it.
kill -INT "$client" 2>/dev/null

# Every datagram reached a UDP socket in h1 (InErrors: a socket that
# could not take it); NoPorts would mean nothing listened on the port.
rcvd=$(( (in1 - in0) + (err1 - err0) ))
if [ "$rcvd" -ge "$count" ]; then
	ok "h1's UDP received >= $count datagrams ($((in1 - in0)) InDatagrams, $((err1 - err0)) InErrors)"
else
	not_ok "h1's UDP received >= $count datagrams"
	diag "InDatagrams +$((in1 - in0)), InErrors +$((err1 - err0)), NoPorts +$((noports1 - noports0))"
fi

# The transfer: both ends exit 0 with a clean summary.  The server then
# has a minute to finish, so that a failed client cannot leave the script
# waiting for the server's timeout.
wait "$client"
client_rc=$?
end_server "$server"
server_rc=$?
verify_ends "under attack" "$client_rc" "$server_rc" "$tmp"

if [ -n "$invalid" ]; then
	check_mrc_drop_counters "$drops0" "$invalid"
else
	not_ok "mrc drop counters account for the invalid packets"
	diag "the fuzzer printed no summary line, so the number of invalid packets is unknown"
fi

rm -rf "$tmp"
done_testing
