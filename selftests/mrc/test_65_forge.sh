#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 900
#
# Forged control packets against a live connection.  h1 and h2
# (mrc_two_hosts) run a verified transfer (mrc_verify); an attacker
# namespace h3 is joined to h1 by its own veth (h3 e1 10.0.9.3 <-> h1 e1
# 10.0.9.1) and knows the connection's QPNs (read here with rdma, as if
# leaked) but not its PSNs.  mrc_forge sends from h3:
#   - ACK, NACK, PORT_STATUS and PROBE_RESP aimed at the connection, from
#     a non-peer address (10.0.9.3): refused on the source address
#     (rx_spoofed);
#   - the same from the peer's own address (10.0.0.2, assigned in h3, h1
#     reached over e1: the off-path spoofer, who never sees an answer):
#     refused because their PSNs do not fit the connection's window
#     (rx_ctrl_invalid);
#   - connectionless probe answers with made-up ids (rx_probe_stray),
#     while a real "mrcctl probe" still gets its answer;
#   - a flood of connectionless probe requests: h1 answers at most its
#     rate limit's worth (h3 counts the answers), the rest is counted
#     (probe_limited).
# The transfer must stay clean (0 corrupted bytes, 0 failed completions),
# the connection's paths usable, and the counters must account for the
# forged packets.  An unprivileged "mrcctl conn show" sees no PSNs.
#
#   MRC_FORGE_COUNT   packets of each kind and source (default 300)
#   MRC_FORGE_FLOOD   probe requests of the flood (default 20000)
set -u
. "$(dirname "$0")/lib.sh"

FORGE=${MRC_FORGE:-$REPO/build/bin/mrc_forge}
VERIFY=${MRC_VERIFY:-$REPO/build/bin/mrc_verify}
count=${MRC_FORGE_COUNT:-300}
flood=${MRC_FORGE_FLOOD:-20000}
verify_args=(--count=2000 --max-size=65536 --timeout=600)
# probe.c: MRC_PROBE_ANSWER_RATE a second, bursts of MRC_PROBE_ANSWER_BURST.
ANSWER_RATE=1000
ANSWER_BURST=512
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_65.XXXXXX") || exit 1

# stat NS DEV NAME: counter NAME of DEV ("mrcctl -j -s dev show").
stat() {
	ns_exec "$1" "$MRCCTL" -j -s dev show dev "$2" 2>/dev/null |
		python3 -S -c '
import json, sys
try:
    print(json.load(sys.stdin)[0]["stats"].get(sys.argv[1], ""))
except Exception:
    print("")' "$3"
}

# conn_field NS DEV KEY: KEY of the first connection of DEV in NS.
conn_field() {
	ns_exec "$1" "$MRCCTL" -j conn show dev "$2" 2>/dev/null | python3 -S -c '
import json, sys
try:
    print(json.load(sys.stdin)[0].get(sys.argv[1], ""))
except Exception:
    print("")' "$3"
}

# lqpns NS DEV: the local QPNs of DEV's RC QPs, comma separated.
lqpns() {
	ns_exec "$1" rdma resource show qp link "$2/1" 2>/dev/null | awk '
		/type RC/ { for (i = 1; i < NF; i++) if ($i == "lqpn") q[$(i + 1)] = 1 }
		END { s = ""; for (x in q) s = s (s == "" ? "" : ",") x; print s }'
}

# forge NAME ARGS...: run mrc_forge in h3, keep its summary in $tmp/NAME.
forge() {
	local name=$1
	shift
	ns_exec h3 "$FORGE" "$@" >"$tmp/$name" 2>&1
	local rc=$?
	if [ $rc -eq 0 ] && grep -q '^mrc_forge: .*errors 0' "$tmp/$name"; then
		ok "mrc_forge $name ($(sed -n 's/^mrc_forge: //p' "$tmp/$name"))"
	else
		not_ok "mrc_forge $name"
		sed 's/^/#   /' "$tmp/$name"
	fi
}

# grew DESC NAME BEFORE MIN [MAX]: counter NAME of h1 grew by MIN..MAX.
grew() {
	local desc=$1 name=$2 before=$3 min=$4 max=${5:-} now d
	now=$(stat h1 "$H1_DEV" "$name")
	d=$(( ${now:-0} - ${before:-0} ))
	if [ -n "$now" ] && [ "$d" -ge "$min" ] && { [ -z "$max" ] || [ "$d" -le "$max" ]; }; then
		ok "$desc ($name +$d)"
	else
		not_ok "$desc"
		diag "$name: ${before:-?} -> ${now:-missing} (+$d), expected ${min}..${max:-}"
	fi
}

require_cmd python3 ss "$MRCCTL"
mrc_attack_setup "$FORGE" "$VERIFY"
# The spoofer: h2's address in h3, h1's plane address reached over e1
# (a static neighbour: no ARP that would tell h1 about it); h1 takes
# packets from 10.0.0.2 on e1 (no reverse path filter, as on a host
# whose fabric routes asymmetrically).
h1_mac=$(ip -n h1 -br link show e1 | awk '{ print $3 }')
check "h3 sends as 10.0.0.2 toward 10.0.0.1 over e1" \
	eval "ip -n h3 addr add 10.0.0.2/32 dev e1 &&
	      ip -n h3 route add 10.0.0.1/32 dev e1 &&
	      ip -n h3 neigh replace 10.0.0.1 lladdr $h1_mac dev e1 nud permanent &&
	      ns_exec h1 sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.e1.rp_filter=0"

# The verified transfer, in the background: server in h1, client in h2.
ns_exec h1 "$VERIFY" -d "$H1_DEV" -g 1 "${verify_args[@]}" >"$tmp/server" 2>&1 &
server=$!
check "mrc_verify server listens in h1" wait_output . ns_exec h1 ss -Hltn
# Until stopped after the forgeries, however fast the host is.
# ns_bg: $BG_PID is mrc_verify itself (ip netns exec execs it), for SIGINT.
ns_bg h2 "$VERIFY" -d "$H2_DEV" -g 1 "${verify_args[@]}" --until-stopped \
	10.0.0.1 >"$tmp/client" 2>&1
client=$BG_PID

# The victim is h1's QP, its peer h2's: once both exist and carry data.
lq= rq=
deadline=$((SECONDS + 30))
while [ $SECONDS -lt $deadline ]; do
	lq=$(lqpns h1 "$H1_DEV")
	rq=$(lqpns h2 "$H2_DEV")
	[ -n "$lq" ] && [ -n "$rq" ] && [ -n "$(conn_field h1 "$H1_DEV" snd_nxt)" ] && break
	kill -0 "$client" 2>/dev/null || break
	sleep 0.2
done
if [ -z "$lq" ] || [ -z "$rq" ]; then
	not_ok "the connection's QPs exist (h1: '$lq', h2: '$rq')"
	done_testing
fi
ok "the connection: h1 QPN $lq, h2 QPN $rq"
total0=$(conn_field h1 "$H1_DEV" evs_total)

# --- QPNs and PSNs are not predictable --------------------------------------
# The first QP of a fresh namespace: a cyclic allocator gives it 16.
q1=${lq%%,*}
if [ "$q1" -ge 32 ] && [ "${rq%%,*}" -ge 32 ]; then
	ok "QPNs are random (h1 $q1, h2 ${rq%%,*}), not counted from 16"
else
	not_ok "QPNs are random, not counted from 16"
	diag "h1 QPN $q1, h2 QPN ${rq%%,*}"
fi
# The streams start at the application's PSNs (mrc_verify draws them at
# random): rdma's sq-psn / rq-psn of h1's QP against where the engine's
# streams are now.  A responder that answered in RTR starts its stream
# at the early start instead, (rq_psn + 2^23) mod 2^24.
read -r sq rqp < <(ns_exec h1 rdma resource show qp link "$H1_DEV/1" lqpn "$q1" 2>/dev/null |
	awk '{ for (i = 1; i < NF; i++) { if ($i == "sq-psn") s = $(i + 1); if ($i == "rq-psn") r = $(i + 1) } }
	     END { print s, r }')
snd=$(conn_field h1 "$H1_DEV" snd_una)
rcv=$(conn_field h1 "$H1_DEV" rcv_nxt)
if [ -n "$sq" ] && [ -n "$rqp" ] && [ -n "$snd" ] && [ -n "$rcv" ] &&
	python3 -S -c "
import sys
sq, rq, snd, rcv = map(int, sys.argv[1:])
near = lambda a, b: (a - b) % 2**32 < 2**20
early = (rq + 2**23) % 2**24
sys.exit(0 if (near(snd, sq) or near(snd, early)) and near(rcv, rq) else 1)" \
		"$sq" "$rqp" "$snd" "$rcv"; then
	ok "h1's streams start at the application's PSNs (sq_psn $sq: snd_una $snd; rq_psn $rqp: rcv_nxt $rcv)"
else
	not_ok "h1's streams start at the application's PSNs"
	diag "sq-psn '$sq' snd_una '$snd', rq-psn '$rqp' rcv_nxt '$rcv'"
fi

# --- from a non-peer address: refused on the source -------------------------
spoofed0=$(stat h1 "$H1_DEV" rx_spoofed)
invalid0=$(stat h1 "$H1_DEV" rx_ctrl_invalid)
for kind in ack nack port-status probe-resp; do
	forge "$kind-nonpeer" --kind "$kind" --dqpn "$lq" --sqpn "$rq" \
		--count "$count" --seed 1 --sport 0 --bind 10.0.9.3 10.0.0.1
done
grew "forged control packets from 10.0.9.3 counted as spoofed" \
	rx_spoofed "$spoofed0" $((4 * count))

# --- from the peer's address: refused on the PSNs ----------------------------
spoofed1=$(stat h1 "$H1_DEV" rx_spoofed)
for kind in ack nack port-status probe-resp; do
	forge "$kind-spoofer" --kind "$kind" --dqpn "$lq" --sqpn "$rq" \
		--count "$count" --seed 2 --sport 0 --bind 10.0.0.2 10.0.0.1
done
# A blind PSN lands in the window with odds of about 1/8000: allow 1%.
grew "forged control packets from the peer's address refused on their PSNs" \
	rx_ctrl_invalid "$invalid0" $((4 * count - 4 * count / 100)) $((4 * count))
grew "... not on their source" rx_spoofed "$spoofed1" 0 0

status=$(conn_field h1 "$H1_DEV" status)
usable=$(conn_field h1 "$H1_DEV" evs_usable)
if [ "$status" = ok ] && [ -n "$usable" ] && [ "$usable" = "$total0" ]; then
	ok "h1's connection is up, every path usable ($usable of $total0 EVs)"
else
	not_ok "h1's connection is up, every path usable"
	diag "status '$status', evs_usable '$usable' of '$total0'"
	ns_exec h1 "$MRCCTL" conn show dev "$H1_DEV" 2>&1 | sed 's/^/#   /'
fi
check "the transfer still runs after the forged connection packets" kill -0 "$client"

# --- PSNs are for the privileged and the QP's owner --------------------------
check_output "root's conn show has the PSNs" ' snd_una [0-9]+ snd_nxt [0-9]+ rcv_nxt [0-9]+ ' \
	ns_exec h1 "$MRCCTL" conn show dev "$H1_DEV"
if command -v setpriv >/dev/null; then
	unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups
		--inh-caps=-all --bounding-set=-all)
	ns_exec h1 "${unpriv[@]}" "$MRCCTL" conn show dev "$H1_DEV" >"$tmp/unpriv" 2>&1
	if grep -q " qpn ${lq%%,*} " "$tmp/unpriv" && ! grep -Eq 'snd_una|snd_nxt|rcv_nxt' "$tmp/unpriv"; then
		ok "an unprivileged conn show sees the connection, not its PSNs"
	else
		not_ok "an unprivileged conn show sees the connection, not its PSNs"
		sed 's/^/#   /' "$tmp/unpriv"
	fi
else
	skip "unprivileged conn show" "no setpriv"
fi

# --- connectionless probes ---------------------------------------------------
stray0=$(stat h1 "$H1_DEV" rx_probe_stray)
forge probe-resp-stray --kind probe-resp --dqpn 0 --count "$count" --seed 3 \
	--sport 0 --bind 10.0.9.3 10.0.9.1
grew "forged connectionless probe answers dropped" rx_probe_stray \
	"$stray0" "$count" "$count"
check_output "a real probe from h1 to h2 is answered" ' rtt ' \
	"$MRCCTL" -n h1 probe dev "$H1_DEV" to 10.0.0.2

limited0=$(stat h1 "$H1_DEV" probe_limited)
forge probe-flood --kind probe-req --count "$flood" --seed 4 --listen-ms 1000 \
	--bind 10.0.9.3 10.0.9.1
answers=$(sed -n 's/^mrc_forge: .*answers \([0-9]*\),.*/\1/p' "$tmp/probe-flood")
secs=$(sed -n 's/^mrc_forge: .*sent in \([0-9.]*\) s.*/\1/p' "$tmp/probe-flood")
# What the bucket allows over the sending time and the second after it.
bound=$(python3 -S -c "import math, sys; print($ANSWER_BURST + math.ceil($ANSWER_RATE * (${secs:-0} + 1.0 + 0.2)))")
if [ -n "$answers" ] && [ "$answers" -ge 1 ] && [ "$answers" -le "$bound" ] &&
	[ "$answers" -lt "$flood" ]; then
	ok "a flood of $flood probes drew $answers answers (at most $bound in ${secs} s)"
else
	not_ok "a flood of $flood probes drew at most the rate limit's answers"
	diag "answers '${answers:-}', bound $bound, sent in ${secs:-?} s"
fi
grew "... the rest counted as probe_limited" probe_limited "$limited0" \
	$(( flood - ${answers:-0} - flood / 100 )) "$flood"

# --- the transfer ------------------------------------------------------------
# SIGINT: the client ends after its current batch, the server with it.
kill -INT "$client" 2>/dev/null
wait "$client"
client_rc=$?
end_server "$server"
server_rc=$?
verify_ends "under forged control packets" "$client_rc" "$server_rc" "$tmp"

rm -rf "$tmp"
done_testing
