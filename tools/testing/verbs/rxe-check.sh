#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-check of the verbs test programs on the kernel's own soft-RoCE
# driver (rdma_rxe), which speaks the same user ABI as mrc: if mrc_verify
# or mrc_negative fails here, the program (or rxe) is wrong, not mrc.
# Run as root on a machine without mrc loaded, normally in the VM:
#
#   make && tools/vm/run --timeout 1200 -- tools/testing/verbs/rxe-check.sh [STAGE...]
#
# STAGEs (default: all): verify (clean runs), selfcheck (the checks can
# fail), loss (netem), negative, compat (mrc_qp_compat, test_69: every
# check must pass on rxe too), ext (mrc_verbs_ext, test_77: every check
# but rxe's known deviations), apps (test_60's programs), peerloss
# (test_62's lost peer);
# smoke (one short run) is not part of all.
# 6.1's rxe only works in the initial network namespace, so both devices
# live there: rxe0 on veth end rxa (10.0.0.1, the server), rxe1 on
# rxb (10.0.0.2, the client).  Policy routing makes the traffic between the
# two local addresses cross the veth pair instead of the loopback device,
# so netem on rxa or rxb sees it.  Output is TAP (selftests/mrc/lib.sh).
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
. "$REPO/selftests/mrc/lib.sh"

stages=${*:-verify selfcheck loss negative compat ext apps peerloss}
has_stage() { [[ " $stages " == *" $1 "* ]]; }

if [ -d /sys/module/mrc ]; then
	not_ok "mrc is loaded; rdma_rxe cannot coexist with it (rmmod mrc first)"
	done_testing
fi

# Locally generated packets to the other end's address are routed out of
# the own veth end (tables 10/11) before the local table is consulted;
# received packets (iif a/b) still find their address in the local table.
route_over_veth() {
	local s
	for s in all rxa rxb; do
		sysctl -qw net.ipv4.conf.$s.accept_local=1 net.ipv4.conf.$s.rp_filter=0 || return 1
	done
	ip rule add pref 10 to 10.0.0.2 iif lo lookup 10 &&
		ip rule add pref 11 to 10.0.0.1 iif lo lookup 11 &&
		ip route add 10.0.0.2 dev rxa src 10.0.0.1 table 10 &&
		ip route add 10.0.0.1 dev rxb src 10.0.0.2 table 11 &&
		ip rule add pref 100 lookup local &&
		ip rule del pref 0 lookup local
}

undo_routes() {
	ip rule add pref 0 lookup local 2>/dev/null
	ip rule del pref 100 lookup local 2>/dev/null
	ip rule del pref 10 2>/dev/null
	ip rule del pref 11 2>/dev/null
	ip route flush table 10 2>/dev/null
	ip route flush table 11 2>/dev/null
}

rxe_wait_gid() {
	wait_output "GID\[ *1\]:[[:space:]]+::ffff:${2//./\.}" ibv_devinfo -v -d "$1"
}

check "modprobe rdma_rxe" modprobe rdma_rxe
veth_pair - rxa 10.0.0.1/24 - rxb 10.0.0.2/24 || { not_ok "veth pair rxa / rxb"; done_testing; }
ok "veth pair rxa (10.0.0.1) / rxb (10.0.0.2)"
check "traffic between the local addresses goes over the veth pair" route_over_veth || done_testing
check "rdma link add rxe0 type rxe netdev rxa" rdma link add rxe0 type rxe netdev rxa || done_testing
check "rdma link add rxe1 type rxe netdev rxb" rdma link add rxe1 type rxe netdev rxb || done_testing
check "rxe0 GID 1 is ::ffff:10.0.0.1" rxe_wait_gid rxe0 10.0.0.1 || done_testing
check "rxe1 GID 1 is ::ffff:10.0.0.2" rxe_wait_gid rxe1 10.0.0.2 || done_testing
veth_rx() { cat /sys/class/net/$1/statistics/rx_packets; }
rx0=$(veth_rx rxa)
check_output "ping 10.0.0.1" "1 received" ping -c 1 -W 5 10.0.0.1 || done_testing
check "the ping went over the veth pair" test "$(veth_rx rxa)" -gt "$rx0"

# vpair DESC [MRC_VERIFY_OPTION...]: mrc_verify server on rxe0, client on
# rxe1; both ends must be clean.
vpair() {
	local desc=$1 start=$SECONDS
	shift
	verbs_pair "$desc" "$VERIFY_CLEAN_RE" - rxe0 - rxe1 10.0.0.1 mrc_verify "$@"
	diag "$desc: $((SECONDS - start)) s"
}

if has_stage smoke; then
	vpair "mrc_verify smoke" --count=20 --max-size=64K --seed=9
fi

if has_stage verify; then
	vpair "mrc_verify all ops, 1 B .. 8 MiB" --count=24 --max-size=8M --seed=1
	vpair "mrc_verify small messages, depth 64" --count=400 --max-size=4K --depth=64 --seed=2
	vpair "mrc_verify mtu 256, 3 SGEs, 1 B .. 64 KiB" --count=60 --max-size=64K --mtu=256 --seed=3
	for op in send send_imm write write_imm read cas faa; do
		vpair "mrc_verify --ops=$op" --ops=$op --count=40 --max-size=256K --seed=4
	done
fi

if has_stage selfcheck; then
	# The checks must be able to fail: one flipped byte is found by
	# the responder and fails both ends; a client without a server
	# fails in time.
	VERBS_EXPECT=fail verbs_pair "mrc_verify --inject-corruption is detected" \
		"^mrc_verify: [0-9]+ messages, [0-9]+ bytes, [1-9][0-9]* corrupted bytes|server found [1-9]" \
		- rxe0 - rxe1 10.0.0.1 mrc_verify --count=20 --max-size=64K --seed=8 --inject-corruption
	check_output_fail "mrc_verify client without a server fails in time" \
		"error: .*connect" timeout 60 "$VERBS_BIN/mrc_verify" -d rxe1 -g 1 --timeout=3 -p 9 10.0.0.1
fi

if has_stage loss; then
	# rxe retransmits go-back-N on a timer: keep the lossy runs small.
	for dev in rxa rxb; do
		check "netem loss 2% on $dev" netem_on - $dev loss 2%
		vpair "mrc_verify under 2% loss on $dev" --count=30 --max-size=256K --seed=5
		netem_off - $dev
	done
	check "netem loss 1% on rxb" netem_on - rxb loss 1%
	vpair "mrc_verify 8 MiB under 1% loss" --count=6 --max-size=8M --min-size=1M --seed=10 \
		--ops=send,write,read
	netem_off - rxb
	check "netem reorder on rxa" netem_on - rxa delay 1ms reorder 25% 50%
	vpair "mrc_verify under reordering" --count=30 --max-size=128K --seed=6
	netem_off - rxa
	check "netem duplicate 5% on rxb" netem_on - rxb duplicate 5%
	vpair "mrc_verify under duplication" --count=30 --max-size=128K --seed=7
	netem_off - rxb
fi

if has_stage apps; then
	# The command lines and output checks of selftests/mrc/test_60_apps.sh.
	app() {
		local desc=$1 re=$2
		shift 2
		app_pair "$desc" "$re" - rxe0 - rxe1 10.0.0.1 18515 "$@"
	}
	PERF=(-x 1 -F)
	app "ibv_rc_pingpong" "$PINGPONG_RE" ibv_rc_pingpong -g 1 -n 100
	app "ibv_rc_pingpong 64 KiB" "$PINGPONG_RE" ibv_rc_pingpong -g 1 -s 65536 -n 100
	app "ib_send_bw" "$PERF_BW_RE" ib_send_bw "${PERF[@]}" -n 200
	app "ib_send_lat" "$PERF_LAT_RE" ib_send_lat "${PERF[@]}" -n 200
	app "ib_write_bw" "$PERF_BW_RE" ib_write_bw "${PERF[@]}" -n 200
	app "ib_write_lat" "$PERF_LAT_RE" ib_write_lat "${PERF[@]}" -n 200
	app "ib_read_bw" "$PERF_BW_RE" ib_read_bw "${PERF[@]}" -n 200
	app "ib_read_lat" "$PERF_LAT_RE" ib_read_lat "${PERF[@]}" -n 200
	app "ib_atomic_bw (fetch-and-add)" "$PERF_BW_RE" ib_atomic_bw "${PERF[@]}" -n 200
	app "ib_atomic_bw (compare-and-swap)" "$PERF_BW_RE" ib_atomic_bw "${PERF[@]}" -n 200 \
		-A CMP_AND_SWAP
	app "ib_write_bw 1 MiB" "$PERF_BW_RE" ib_write_bw "${PERF[@]}" -n 20 -s 1048576
	app "ib_send_bw 1 MiB" "$PERF_BW_RE" ib_send_bw "${PERF[@]}" -n 20 -s 1048576
	check_fail "ibv_rc_pingpong without a server fails" \
		timeout 30 ibv_rc_pingpong -d rxe1 -g 1 -p 18599 10.0.0.1
fi

# Where 6.1's rxe deviates from the IB specification, which mrc_negative
# checks (mrc follows the specification): a receive posted on a QP in
# the error state is never flushed (rxe's user receive queue has no
# doorbell; only an incoming packet would make the responder look at it);
# an SGE with an invalid lkey completes with "local QP operation error"
# instead of "local protection error".  (And a QP retry count of 7 means
# "forever" to rxe: the peerloss stage uses 6.)
# With WQEs written straight into the send ring, rxe sends a misaligned
# atomic (the responder answers with a remote access error), sends inline
# data longer than its slot and an inline READ, and reports too many SGEs
# or a message over 2 GiB as a local QP operation error; it accepts an AV
# in SQD->SQD and, like mrc before, never sends what was posted in SQD.
# After ibv_dereg_mr of a READ's MR rxe keeps the responder's QP in RTS
# (mrc ends it: it cannot resend the data).
RXE_KNOWN='^not ok [0-9]+ - (receive posted on the QP in ERR: expected Work Request Flushed Error, got no completion|RDMA WRITE from a local SGE with a bad lkey: expected local protection error, got local QP operation error'
RXE_KNOWN+='|atomic fetch-and-add at an address not 8-byte aligned \(raw WQE\): expected remote invalid request error at once, got remote access error'
RXE_KNOWN+="|inline WRITE one byte longer than the slot's max_inline_data"
RXE_KNOWN+='( \(raw WQE\): expected local length error at once, got success|: the WR after it|: QP state is ERR)'
RXE_KNOWN+='|inline RDMA READ( \(raw WQE\): expected local QP operation error at once, got success|: the WR after it|: QP state is ERR)'
RXE_KNOWN+='|(more SGEs than the slot holds|SGE lengths beyond the largest message \(2\^31\)) \(raw WQE\): expected local length error at once, got local QP operation error'
RXE_KNOWN+='|SQD -> SQD with IBV_QP_AV: expected EINVAL, got success'
RXE_KNOWN+='|the WRITE posted in SQD, after SQD -> RTS: expected success, got no completion'
RXE_KNOWN+="|the responder's QP ends in ERR after the dereg)"

# on_rxe PROG KNOWN_RE LOG: PROG's client output in LOG ends with its
# summary and has no failure other than rxe's known deviations (KNOWN_RE,
# listed as a diagnostic).
on_rxe() {
	local out known
	out=$(cat "$3")
	grep -Eq "^# $1: [0-9]+ passed, [0-9]+ failed\$" <<<"$out" || return 1
	known=$(grep -E '^not ok' <<<"$out" | grep -E "$2")
	[ -n "$known" ] && diag "rxe deviations:" "$known"
	! grep -E '^not ok' <<<"$out" | grep -Evq "$2"
}

# rxe_verdict PROG KNOWN_RE LOG: the check of PROG's client on rxe1 (its
# output in LOG): on_rxe, the output kept as a diagnostic.
rxe_verdict() {
	local what="$1: every check passes except rxe's known deviations"
	_mrc_out=$(cat "$3")
	if on_rxe "$@"; then
		ok "$what"
		printf '%s\n' "$_mrc_out" | sed 's/^/#   /'
	else
		not_ok "$what"
		_mrc_explain "output:" "$VERBS_BIN/$1" -d rxe1 -g 1 10.0.0.1
	fi
}

if has_stage negative; then
	nlog=$(mktemp)
	slog=$(mktemp)
	timeout -k 5 300 "$VERBS_BIN/mrc_negative" -d rxe0 -g 1 --timeout=280 >"$slog" 2>&1 &
	npid=$!
	timeout -k 5 300 "$VERBS_BIN/mrc_negative" -d rxe1 -g 1 --timeout=280 \
		--qp-timeout=10 --retry=1 10.0.0.1 >"$nlog" 2>&1
	wait "$npid"
	nrc=$?
	check_finished "mrc_negative server exits 0" "$nrc" "$slog" "" \
		"$VERBS_BIN/mrc_negative" -d rxe0 -g 1
	rxe_verdict mrc_negative "$RXE_KNOWN" "$nlog"
	rm -f "$nlog" "$slog"
fi

# The zero-depth queues and destroy/flush semantics that mrc copies from
# rxe (test_69_qp_compat.sh): every check holds on rxe.
if has_stage compat; then
	verbs_pair "mrc_qp_compat on rxe" \
		'^# mrc_qp_compat: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* sessions, 0 errors)$' \
		- rxe0 - rxe1 10.0.0.1 mrc_qp_compat
fi

# The extended verbs and memory windows (test_77_verbs_ext.sh).  6.1's
# rxe writes the kernel's IB_WC_WITH_INVALIDATE (bit 2) into the user
# CQE, where it reads as IBV_WC_IP_CSUM_OK, not IBV_WC_WITH_INV: that
# check is its known deviation.
EXT_KNOWN='^not ok [0-9]+ - the receive completes with IBV_WC_WITH_INV and the rkey'

if has_stage ext; then
	elog=$(mktemp)
	timeout -k 5 220 "$VERBS_BIN/mrc_verbs_ext" -d rxe0 -g 1 --timeout=200 >/dev/null 2>&1 &
	epid=$!
	timeout -k 5 220 "$VERBS_BIN/mrc_verbs_ext" -d rxe1 -g 1 --timeout=200 \
		--qp-timeout=12 --retry=2 10.0.0.1 >"$elog" 2>&1
	wait "$epid"
	rxe_verdict mrc_verbs_ext "$EXT_KNOWN" "$elog"
	rm -f "$elog"
fi

if has_stage peerloss; then
	# test_62_negative.sh's transfers that lose their peer: first all
	# of the server's packets dropped, then its netdev deleted (which
	# deletes the veth pair and unregisters both rxe devices: last).
	# rxe takes a retry count of 7 as "retry forever" (the IB spec
	# gives that meaning only to the RNR retry count): 6 here.
	PEER_LOSS_OPTS=--retry=6 peer_loss "rxe peer silent" - rxe0 - rxe1 10.0.0.1 \
		netem_on - rxa loss 100%
	netem_off - rxa
	PEER_LOSS_OPTS=--retry=6 peer_loss "rxe peer netdev deleted" - rxe0 - rxe1 10.0.0.1 \
		ip link del rxa
fi

rdma link del rxe0 2>/dev/null
rdma link del rxe1 2>/dev/null
undo_routes
done_testing
