#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 900
#
# Live QPs follow route changes (four direct planes, lib_fabric.sh
# fabric_direct 4).  h1's route to h2 names the four planes, h2's route to
# h1 planes 1-2.  A verified mrc_verify transfer (client h2, server h1)
# runs while h2's route changes under it:
#   planes 1-2 -> planes 3-4 (route set) -> planes 1-4 (route set)
#   -> planes 1-4 with CC profile 3 (route set: the live QP's window goes
#   within its 256 KiB..1 MiB), whose max-cwnd then drops to 8 KiB, then
#   no congestion control (algo none: the window is max-cwnd) and back
#   (cc-profile set: the window follows at once)
#   -> no route (route del: plane 1 alone).
# After each change, over a window of WIN_SECS s, h2's plane tx counters
# (mrcctl -s plane show) and h1's plane rx counters show the traffic on
# the route's planes only: each plane of the route carries at least MIN
# bytes, each other plane under 1% of the total.  The transfer completes
# with zero failed completions and zero corrupted bytes; h2's monitor
# shows the route events and the EV set changes (reason config).  Before
# the route del, a route set that the QP cannot follow (an STEV profile
# toward its IPv4 peer) is refused whole, naming the QP.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

WIN_SECS=3
MIN=50000	# bytes a plane of the route carries in a window, at least

require_cmd "$MRCCTL" "$VERBS_BIN/mrc_verify"
fabric_direct_setup 4
tmp=$(mktemp -d) || exit 1

# route_h2 CMD PLANE...: h2's route to h1 (add or set) over the planes.
route_h2() {
	local cmd=$1 p hops=()
	shift
	for p in "$@"; do
		hops+=(plane "$p" via "$(fab_addr 1 "$p")")
	done
	ns_exec h2 "$MRCCTL" route "$cmd" "$(fab_addr 1 1)" dev "$H2_DEV" "${hops[@]}"
}

h1_hops=()
for p in 1 2 3 4; do
	h1_hops+=(plane "$p" via "$(fab_addr 2 "$p")")
done
check "h1's route to h2 over planes 1-4" \
	ns_exec h1 "$MRCCTL" route add "$(fab_addr 2 1)" dev "$H1_DEV" "${h1_hops[@]}"
check "h2's route to h1 over planes 1-2" route_h2 add 1 2

"$MRCCTL" -n h2 monitor >"$tmp/monitor" 2>&1 &
mon=$!
sleep 1

# window: per-plane growth over WIN_SECS s of h2's tx bytes ($tx[1..4])
# and h1's rx bytes ($rx[1..4]).
declare -a tx rx
window() {
	local h p
	for h in 1 2; do
		fab_plane_stats "h$h" "$(fab_dev $h)" >"$tmp/a.$h"
	done
	sleep "$WIN_SECS"
	for h in 1 2; do
		fab_plane_stats "h$h" "$(fab_dev $h)" >"$tmp/b.$h"
	done
	for p in 1 2 3 4; do
		tx[p]=$(_growth "$tmp/a.2" "$tmp/b.2" "$p" 2)
		rx[p]=$(_growth "$tmp/a.1" "$tmp/b.1" "$p" 3)
	done
}

# _growth OLD NEW PLANE COL: the counter's growth (0 if the plane is not
# listed).
_growth() {
	awk -v p="$3" -v c="$4" '
		FNR == NR && $1 == p { old = $c }
		FNR != NR && $1 == p { v = $c - old }
		END { print v + 0 }' "$1" "$2"
}

# on_planes DESC PLANE...: the last window's traffic is on the planes
# given: each carries >= MIN bytes sent by h2 and received by h1, each
# other plane under 1% of all h2 sent.
on_planes() {
	local desc=$1 p total=0
	shift
	for p in 1 2 3 4; do
		total=$((total + tx[p]))
	done
	diag "$desc: h2 tx bytes per plane ${tx[1]} ${tx[2]} ${tx[3]} ${tx[4]}," \
		"h1 rx ${rx[1]} ${rx[2]} ${rx[3]} ${rx[4]}"
	for p in 1 2 3 4; do
		if [[ " $* " == *" $p "* ]]; then
			check "$desc: plane $p carries traffic (h2 tx ${tx[p]}, h1 rx ${rx[p]} bytes)" \
				test "${tx[p]}" -ge "$MIN" -a "${rx[p]}" -ge "$MIN"
		else
			check "$desc: plane $p carries < 1% (h2 tx ${tx[p]} of $total bytes)" \
				test $((tx[p] * 100)) -lt "$total"
		fi
	done
}

# change DESC CMD...: run CMD (a route change of h2) while the transfer
# runs; the window starts a second later (packets already queued drain).
change() {
	local desc=$1
	shift
	check "$desc: mrc_verify runs before" fab_verify_running
	check "$desc" "$@"
	sleep 1
	window
}

# The transfer outlasts every step of the test: its deadline (--timeout
# of mrc_verify, VERBS_TIMEOUT) is not the 240 s of the shorter ones (the
# steps took 5 minutes on a loaded host).
VERBS_TIMEOUT=${VERBS_TIMEOUT:-720}
fab_verify_start --min-size=64K --max-size=1M --until-stopped --seed=82 ||
	diag "mrc_verify did not report its start"
sleep 2
check "mrc_verify runs" fab_verify_running
window
on_planes "route over planes 1-2" 1 2

change "route set: planes 3-4" route_h2 set 3 4
on_planes "moved to planes 3-4" 3 4

change "route set: planes 1-4" route_h2 set 1 2 3 4
on_planes "spread over planes 1-4" 1 2 3 4

# A route change one live QP cannot follow is refused whole: an STEV
# profile (IPv6 only) for the IPv4 peer of the transfer's QP.  The
# message names the QP; the route and the QP stay as they were.
h2_route_now() {
	ns_exec h2 "$MRCCTL" route show dev "$H2_DEV" "$(fab_addr 1 1)"
}
stev_profile() {
	ns_exec h2 "$MRCCTL" ev-profile add dev "$H2_DEV" id 9 mode auto format stev \
		count 8 planes 3-4 &&
		ns_exec h2 "$MRCCTL" ev-profile set dev "$H2_DEV" id 9 state offline &&
		ns_exec h2 "$MRCCTL" ev-profile set dev "$H2_DEV" id 9 state online
}
check "h2: STEV EV profile 9 online" stev_profile
before=$(h2_route_now)
check_output_fail "route set naming an STEV profile: refused, naming the live QP" \
	'live QP [0-9]+ cannot move to the changed route \(its EV format needs IPv6\); nothing changed' \
	ns_exec h2 "$MRCCTL" route set "$(fab_addr 1 1)" dev "$H2_DEV" \
	plane 3 via "$(fab_addr 1 3)" ev-profile 9
check "... h2's route is unchanged" test "$(h2_route_now)" = "$before"
window
on_planes "still over planes 1-4 after the refusal" 1 2 3 4

# The CC profile follows too: a route set naming CC profile 3 moves the
# QP to it, and a change of profile 3's parameters reaches the running
# QP at once: its window is brought within the new max-cwnd.
conn_h2() {	# FIELD: the value after FIELD in h2's conn show
	ns_exec h2 "$MRCCTL" conn show dev "$H2_DEV" |
		awk -v f="$1" '{ for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}
check "h2: CC profile 3 (window 256 KiB..1 MiB)" \
	ns_exec h2 "$MRCCTL" cc-profile add dev "$H2_DEV" id 3 algo uet-1.0-nscc \
	min-cwnd 262144 max-cwnd 1048576
check "route set: planes 1-4 and CC profile 3" \
	ns_exec h2 "$MRCCTL" route set "$(fab_addr 1 1)" dev "$H2_DEV" \
	plane 1 via "$(fab_addr 1 1)" plane 2 via "$(fab_addr 1 2)" \
	plane 3 via "$(fab_addr 1 3)" plane 4 via "$(fab_addr 1 4)" cc-profile 3
check "... the live QP runs CC profile 3" test "$(conn_h2 cc_profile)" = 3
cwnd=$(conn_h2 cwnd)
check "... with a window within it ($cwnd bytes)" test "${cwnd:-0}" -ge 262144
check "cc-profile set: max-cwnd 8192" \
	ns_exec h2 "$MRCCTL" cc-profile set dev "$H2_DEV" id 3 \
	min-cwnd 0 init-cwnd 8192 max-cwnd 8192
cwnd=$(conn_h2 cwnd)
check "... the live QP's window is within it at once ($cwnd bytes)" \
	test "${cwnd:-99999999}" -le 8192
window
on_planes "still over planes 1-4 in the small window" 1 2 3 4
cwnd=$(conn_h2 cwnd)
check "... and stays within it under traffic ($cwnd bytes)" \
	test "${cwnd:-99999999}" -le 8192
# No congestion control (algo none): the live QP's window is max-cwnd,
# whatever the ACKs say.
check "cc-profile set: algo none, max-cwnd 64 KiB" \
	ns_exec h2 "$MRCCTL" cc-profile set dev "$H2_DEV" id 3 algo none \
	init-cwnd 65536 max-cwnd 65536
cwnd=$(conn_h2 cwnd)
check "... the live QP's window is max-cwnd at once ($cwnd bytes)" \
	test "${cwnd:-0}" -eq 65536
sleep 2
cwnd=$(conn_h2 cwnd)
check "... and stays there under traffic ($cwnd bytes)" test "${cwnd:-0}" -eq 65536
check "cc-profile set: uet-1.0-nscc, max-cwnd 1 MiB again" \
	ns_exec h2 "$MRCCTL" cc-profile set dev "$H2_DEV" id 3 algo uet-1.0-nscc \
	init-cwnd 262144 max-cwnd 1048576

change "route del: plane 1 alone" \
	ns_exec h2 "$MRCCTL" route del "$(fab_addr 1 1)" dev "$H2_DEV"
on_planes "back on plane 1 without a route" 1

check "mrc_verify still runs" fab_verify_running
fab_verify_stop
fab_verify_wait "verified transfer across the route changes"

kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
check_output "monitor: h2's route set announced" "^route add dev $H2_DEV $(fab_addr 1 1) .*plane 3 " \
	cat "$tmp/monitor"
check_output "monitor: h2's route del announced" "^route del dev $H2_DEV $(fab_addr 1 1) " \
	cat "$tmp/monitor"
check_output "monitor: the QP's EVs moved (reason config)" "^ev state .*plane [34] .*reason config" \
	cat "$tmp/monitor"
diag "monitor: $(grep -c 'reason config' "$tmp/monitor") EV set events"

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
