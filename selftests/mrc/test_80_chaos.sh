#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 1200
#
# Chaos soak: for MRC_SOAK_SECS (default 120; "make soak": 600) seconds,
# over a 2-plane leaf-spine fabric (2 spines per plane) with routes over
# both planes:
#   - a verified transfer h2 -> h1 (mrc_verify --until-stopped) runs
#     throughout;
#   - QPs, CQs and MRs churn: short verified transfers h2 -> h1, one
#     after the other, each creating and destroying its own;
#   - faults come one at a time, every 2-4 s, chosen by a seeded draw
#     (MRC_SOAK_SEED): h1's or h2's plane 2 netdev down, a leaf-spine link
#     down (1-3 s), or netem loss 1%, reorder 25% or duplication 2% on a
#     host's plane netdev (3 s);
#   - instances churn on a second pair of hosts (h3, h4, one veth): an
#     instance is deleted under a running transfer and added again, and
#     every third cycle h4's namespace is torn down with the transfer's
#     process in it and built again.
# Then every program is stopped and checked, the instances and namespaces
# go, and the module unloads.  Required: every transfer of h1/h2 clean (0
# corrupted bytes, 0 failed completions: one fault at a time never leaves
# the connection without a path); every transfer of h3/h4 ends (by itself,
# within its retry budget) with 0 corrupted bytes (its failed completions
# are the correct errors of a deleted device); rmmod succeeds.  run.sh
# fails the test on any kernel warning, and on the sanitizer kernel
# (tools/vm/run --kernel debug) on KASAN/UBSAN/lockdep reports and
# kmemleak leaks.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

SOAK=${MRC_SOAK_SECS:-120}
RANDOM=${MRC_SOAK_SEED:-80}
NOCORRUPT_RE='^mrc_verify: [0-9]+ messages, [0-9]+ bytes, 0 corrupted bytes, [0-9]+ failed completions$'
CHURN_PORT=18530
PAIR_PORT=18531

require_cmd "$VERBS_BIN/mrc_verify"
fabric_setup "fabric: 2 planes x 2 spines" 2 2
mrc_tmpdir
check "routes over planes 1-2 on both hosts" fabric_routes

# --- the second pair: h3 and h4, one veth, instances mrc3 and mrc4 ------------
pair_up() {
	{ [ -e /run/netns/h3 ] || ns_create h3; } &&
		{ [ -e /run/netns/h4 ] || ns_create h4; } || return 1
	ip -n h3 link show c0 >/dev/null 2>&1 ||
		veth_pair h3 c0 10.77.0.3/24 h4 c0 10.77.0.4/24 || return 1
	inst_up h3 mrc3 10.77.0.3 && inst_up h4 mrc4 10.77.0.4
}
inst_up() {
	no_rdma_link "$1" "$2" || return 0
	ns_exec "$1" rdma link add "$2" type mrc netdev c0 && mrc_wait_gid "$1" "$2" "$3"
}
check "second pair h3-h4 with instances mrc3, mrc4" pair_up

# pair_start: a transfer h4 -> h3 with a short retry budget (so that a
# deleted peer is noticed within seconds); pair_end DESC: wait for both
# ends to exit by themselves (bounded) and record the result.
pair_runs=0
pair_bad=0
# No timeout(1) in between: $pair_cli must be the process itself, the one
# that keeps h4's namespace alive (mrc_verify's own watchdog bounds it).
pair_start() {
	pair_killed=0
	ns_bg h3 "$VERBS_BIN/mrc_verify" -d mrc3 -g 1 -p $PAIR_PORT \
		--timeout=180 --qp-timeout=8 --retry=2 >"$tmp/pair_srv" 2>&1
	pair_srv=$BG_PID
	ns_bg h4 "$VERBS_BIN/mrc_verify" -d mrc4 -g 1 -p $PAIR_PORT \
		--timeout=180 --qp-timeout=8 --retry=2 --until-stopped --count=40 \
		--max-size=128K 10.77.0.3 >"$tmp/pair_cli" 2>&1
	pair_cli=$BG_PID
	wait_for 30 grep -q "^mrc_verify: client on" "$tmp/pair_cli"
}
pair_end() {
	local pid side t0=$SECONDS end=$((SECONDS + 60))
	for pid in "$pair_cli" "$pair_srv"; do
		while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $end ]; do
			sleep 0.2
		done
	done
	diag "instance churn $1: both ends gone $((SECONDS - t0)) s after the fault"
	pair_runs=$((pair_runs + 1))
	for side in cli srv; do
		pid=pair_$side
		if [ $side = cli ] && [ "$pair_killed" = 1 ]; then
			wait "${!pid}" 2>/dev/null	# killed on purpose: no summary
			continue
		fi
		if kill -0 "${!pid}" 2>/dev/null; then
			pair_bad=$((pair_bad + 1))
			diag "instance churn $1: the $side end still runs 60 s after the fault"
			kill -9 "${!pid}" 2>/dev/null
		elif ! grep -Eq -- "$NOCORRUPT_RE" "$tmp/pair_$side"; then
			pair_bad=$((pair_bad + 1))
			diag "instance churn $1: the $side end: $(tail -n 2 "$tmp/pair_$side" | paste -sd' ')"
		fi
		wait "${!pid}" 2>/dev/null
	done
}

# One cycle of instance churn: a transfer, then (by turns) h3's or h4's
# instance deleted under it, or h4's namespace torn down with the
# client in it; the pair built again.
pair_cycle() {
	local n=$1
	pair_start || { diag "instance churn $n: the transfer did not start"; }
	sleep $((2 + RANDOM % 3))
	case $((n % 3)) in
	0) ns_exec h3 rdma link del mrc3 ;;
	1) ns_exec h4 rdma link del mrc4 ;;
	2)	# The netns dies when its last process goes: the client is
		# killed after the namespace is deleted.
		ip netns del h4
		sleep 1
		pair_killed=1
		kill -9 "$pair_cli" 2>/dev/null
		# h3's end of the veth goes with h4's namespace: wait for it,
		# lest pair_up find the dying one.
		wait_for 30 eval '! ip -n h3 link show c0 >/dev/null 2>&1' ||
			diag "instance churn $n: h3's c0 outlived h4's namespace"
		;;
	esac
	pair_end "$n"
	pair_up || { pair_bad=$((pair_bad + 1)); diag "instance churn $n: cannot rebuild the pair"; }
}

# --- QP/MR churn between h1 and h2 ----------------------------------------------
churn_loop() {
	local i=0 ok_runs=0 bad=0 out
	while [ ! -e "$tmp/stop" ]; do
		i=$((i + 1))
		ns_bg h1 timeout -k 5 150 "$VERBS_BIN/mrc_verify" -d "$H1_DEV" -g 1 -p $CHURN_PORT \
			--timeout=120 >"$tmp/churn_srv" 2>&1
		local s=$BG_PID
		out=$(ns_exec h2 timeout -k 5 150 "$VERBS_BIN/mrc_verify" -d "$H2_DEV" -g 1 \
			-p $CHURN_PORT --timeout=120 --count=20 --max-size=64K --seed=$i \
			"$(fab_addr4 1 1)" 2>&1)
		wait "$s"
		if grep -Eq -- "$VERIFY_CLEAN_RE" <<<"$out" &&
			grep -Eq -- "$VERIFY_CLEAN_RE" "$tmp/churn_srv"; then
			ok_runs=$((ok_runs + 1))
		else
			bad=$((bad + 1))
			echo "run $i: $(tail -n 2 <<<"$out" | paste -sd' ') / $(tail -n 1 "$tmp/churn_srv")"
		fi
	done
	echo "churn: $i runs, $ok_runs clean, $bad bad"
}

# --- faults, one at a time ---------------------------------------------------------
faults=()
fault() {
	local what
	case $((RANDOM % 5)) in
	0)
		local h=$((1 + RANDOM % 2)) d=$((1 + RANDOM % 3))
		what="h$h plane 2 down ${d}s"
		fab_plane_link "$h" 2 down
		sleep "$d"
		fab_plane_link "$h" 2 up
		;;
	1 | 2)
		local p=$((1 + RANDOM % 2)) s=$((1 + RANDOM % 2)) l=$((1 + RANDOM % 2)) d=$((1 + RANDOM % 3))
		what="plane $p spine $s leaf $l link down ${d}s"
		fab_spine_link "$p" "$s" "$l" down
		sleep "$d"
		fab_spine_link "$p" "$s" "$l" up
		;;
	3 | 4)
		local h=$((1 + RANDOM % 2)) p=$((1 + RANDOM % 2)) kind
		case $((RANDOM % 3)) in
		0) kind=(loss 1%) ;;
		1) kind=(delay 1ms reorder 25% 50%) ;;
		2) kind=(duplicate 2%) ;;
		esac
		what="netem ${kind[*]} on h$h e$p 3s"
		netem_on "h$h" "e$p" "${kind[@]}"
		sleep 3
		netem_off "h$h" "e$p"
		;;
	esac
	faults+=("$what")
}

VERBS_TIMEOUT=$((SOAK + 300)) fab_verify_start --until-stopped --count=100 --min-size=4K --max-size=256K --seed=80 ||
	diag "mrc_verify did not report its start"
check "the main transfer runs" fab_verify_running
churn_loop >"$tmp/churn" 2>&1 &
churn_pid=$!

start=$SECONDS
cycle=0
next_pair=$((SECONDS + 5))
while [ $((SECONDS - start)) -lt "$SOAK" ]; do
	fault
	sleep $((1 + RANDOM % 2))
	if [ $SECONDS -ge $next_pair ]; then
		pair_cycle "$cycle"
		cycle=$((cycle + 1))
		next_pair=$((SECONDS + 3))
	fi
done
diag "soak: $((SECONDS - start)) s, ${#faults[@]} faults, $cycle instance cycles"
diag "faults: $(printf '%s; ' "${faults[@]:0:12}")..."

check "the main transfer still runs after the soak" fab_verify_running
fab_verify_stop
fab_verify_wait "main transfer through every fault"
touch "$tmp/stop"
wait "$churn_pid"
diag "$(tail -n 5 "$tmp/churn")"
check_output "QP/MR churn: every run clean" '^churn: [1-9][0-9]* runs, [0-9]+ clean, 0 bad$' \
	tail -n 1 "$tmp/churn"
check "instance churn: $cycle cycles, every transfer ended with 0 corrupted bytes ($pair_bad bad of $((pair_runs * 2)) ends)" \
	test "$cycle" -gt 0 -a "$pair_bad" -eq 0

check "the instances are deleted" eval \
	'ns_exec h1 rdma link del "$H1_DEV" && ns_exec h2 rdma link del "$H2_DEV"'
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 60
done_testing
