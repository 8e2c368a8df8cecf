#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# RDMA middleware from Debian's archive over mrc (issue 15), unmodified,
# between h1 and h2 (mrc_two_hosts), the server in h1 and the client in
# h2 addressing 10.0.0.1; each program is skipped only when it is not
# installed (tools/deps.sh installs them all):
#  - qperf with rdma_cm connection setup (-cm1): rc_bw, rc_lat and
#    rc_rdma_write_bw each report a non-zero figure, and the server
#    reports no error.  rc_lat's QPs have one send and one receive WQE
#    and post the next one as soon as a completion is seen.
#    Not run: ud_lat.  qperf 0.4.11 uses rdma_cm for RC only ("-cm1 set
#    but not used in test ud_lat"); its UD address handle then has a LID
#    and no GRH, which the RDMA core refuses on a RoCE port, mrc's as
#    rxe's: ibv_create_ah fails EINVAL ("failed to create address
#    handle: Invalid argument").
#  - libfabric's fi_pingpong over the verbs provider with data checks
#    (-c): -e msg (RC, connected through rdma_cm) and -e dgram (UD).
#  - UCX's ucx_perftest (ucx-utils 1.13.1), UCP tests tag_bw,
#    ucp_put_bw and tag_lat with UCX_TLS=rc_verbs,ud_verbs (UCP's wireup
#    needs a UD transport: rc_verbs alone fails in ucp_ep_create, "no
#    auxiliary transport ...: Unsupported operation"), the client's
#    lanes on $H2_DEV, and tag_lat over ud_verbs alone.  UCX's UD
#    transport checks the destination GID in each datagram's GRH (on
#    by default for RoCE), taking the GRH's layout (IPv4 or IPv6) from
#    the completion's sl as mlx5 NICs report it: mrc reports it too
#    (with sl 0 every datagram was dropped by UCX and the UD endpoints
#    timed out).
# Not run: OpenMPI.  openmpi-bin has the launchers but no MPI program
# (one needs libopenmpi-dev and a compiler in the test), and mpirun's
# ranks would have to be started in h1 and h2 by an rsh agent running
# "ip netns exec" while both namespaces share one host name.
. "$(dirname "$0")/lib.sh"

have() {
	command -v "$1" >/dev/null 2>&1
}

if ! have qperf && ! have ucx_perftest && ! have fi_pingpong; then
	mrc_skip "none of qperf, ucx_perftest, fi_pingpong installed"
fi
# librdmacm's device file (/dev/infiniband/rdma_cm).
check "modprobe rdma_ucm" modprobe rdma_ucm || done_testing
mrc_verbs_setup

# mw_pair DESC PORT CLIENT_RE SERVER_RE SERVER_CMD... -- CLIENT_CMD...:
# lib.sh's cmd_pair with a server that listens on a TCP port.
mw_pair() {
	cmd_pair tcp "$@"
}

# no_error_in FILE: FILE has no line with "fail" or "error" (those it
# has are printed).
no_error_in() {
	[ -f "$1" ] && ! grep -Ei "fail|error" "$1"
}

# qperf: one server in h1 (TCP port 19765) for all the tests; each test
# runs 2 s.  A figure is "bw = 15.1 MB/sec" or "latency = 2.59 ms".
qperf_test() {
	check_output "qperf -cm1 $1" "$2" \
		ns_exec h2 timeout -k 5 60 qperf -cm1 -t 2 10.0.0.1 "$1" &&
		diag "qperf $1: $(grep -E "$2" <<<"$_mrc_out" | tr -s ' ')"
}
if have qperf; then
	qlog=$(mktemp)
	ns_bg h1 timeout -k 5 200 qperf </dev/null >"$qlog" 2>&1
	qpid=$BG_PID
	if check "qperf: the server listens on TCP port 19765" \
		wait_listen h1 19765 30; then
		QBW="^[[:space:]]*bw[[:space:]]+=[[:space:]]+$NZ_NUM [KMG]?B/sec"
		QLAT="^[[:space:]]*latency[[:space:]]+=[[:space:]]+$NZ_NUM (ns|us|ms|sec)"
		qperf_test rc_bw "$QBW"
		qperf_test rc_lat "$QLAT"
		qperf_test rc_rdma_write_bw "$QBW"
	fi
	kill "$qpid" 2>/dev/null
	wait "$qpid"
	# The server prints its errors ("server: failed to post receive")
	# to the client and to its own output.
	check "qperf: the server reported no error" no_error_in "$qlog"
	rm -f "$qlog"
else
	skip "qperf" "qperf not installed"
fi

# UCX: ucx_perftest's server in h1 (TCP port 13337), its client in h2,
# each on its own device (UCX_NET_DEVICES; the UCP tests take no device
# option).  UCX_LOG_LEVEL=info prints the client's lanes (ep_cfg).
ucx_test() {
	local tls=$1 test=$2 lane=$3
	mw_pair "ucx_perftest $test over $tls" 13337 \
		"^Final:[[:space:]]+0*[1-9][0-9]*[[:space:]]" "" \
		env UCX_TLS="$tls" \
		UCX_NET_DEVICES="$H1_DEV:1" ucx_perftest -- \
		env UCX_TLS="$tls" \
		UCX_NET_DEVICES="$H2_DEV:1" UCX_LOG_LEVEL=info \
		ucx_perftest 10.0.0.1 -t "$test" -n 200 -w 10 -s 4096
	diag "ucx_perftest $test ($tls): $(grep -E '^Final:' <<<"$PAIR_CLIENT_OUT" | tr -s ' ')"
	check_output "ucx_perftest $test: $lane lane on $H2_DEV" \
		"ep_cfg\[[0-9]+\]: .*$lane\([^)]*/$H2_DEV:1" printf '%s\n' "$PAIR_CLIENT_OUT"
}
if have ucx_perftest; then
	ucx_test rc_verbs,ud_verbs tag_bw tag
	ucx_test rc_verbs,ud_verbs ucp_put_bw rma
	ucx_test ud_verbs tag_lat tag
else
	skip "ucx_perftest" "ucx-utils not installed"
fi

# libfabric: fi_pingpong's server in h1 (control port 47592), 100 round
# trips of 1 KiB, each message checked (-c).  Result line: "1k 100 =100
# 200k 1.31s 0.16 6545.25 0.00" (bytes, sent, acked, total, time, MB/s).
FI_RE="^1k[[:space:]]+100[[:space:]]+=100[[:space:]]+200k[[:space:]]+[0-9.]+s[[:space:]]+${NZ_NUM}[[:space:]]"
if have fi_pingpong; then
	mw_pair "fi_pingpong verbs msg (rdma_cm)" 47592 "$FI_RE" "$FI_RE" \
		fi_pingpong -p verbs -e msg -d "$H1_DEV" -I 100 -S 1024 -c -- \
		fi_pingpong -p verbs -e msg -d "$H2_DEV" -I 100 -S 1024 -c 10.0.0.1
	diag "fi_pingpong msg: $(grep -E "$FI_RE" <<<"$PAIR_CLIENT_OUT" | tr -s ' ')"
	mw_pair "fi_pingpong verbs dgram (UD)" 47592 "$FI_RE" "$FI_RE" \
		fi_pingpong -p verbs -e dgram -d "$H1_DEV-dgram" -I 100 -S 1024 -c -- \
		fi_pingpong -p verbs -e dgram -d "$H2_DEV-dgram" -I 100 -S 1024 -c 10.0.0.1
	diag "fi_pingpong dgram: $(grep -E "$FI_RE" <<<"$PAIR_CLIENT_OUT" | tr -s ' ')"
else
	skip "fi_pingpong" "libfabric-bin not installed"
fi

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
