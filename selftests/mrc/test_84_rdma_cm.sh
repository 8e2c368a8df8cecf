#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 240
#
# rdma_cm over mrc (issue 15) between h1 and h2, two network namespaces,
# over IPv4 and IPv6.  First a kernel verbs consumer of our own
# (tools/testing/kverbs): a kernel UD QP sends to itself, a bad lkey and a
# WRITE on UD complete with their errors.  Then the kernel's MAD layer
# runs QP1 (a GSI QP of mrc, a kernel verbs consumer) on each instance,
# the CM and rdma_cm connect over it.
# Debian's unmodified rdmacm-utils: rping with verified data (-V),
# ucmatose (RC over rdma_cm), udaddy (UD QPs whose address comes from
# rdma_cm), rdma_server/rdma_client (the rdma_getaddrinfo/rdma_create_ep
# API); perftest's ib_write_bw with its connection made by rdma_cm (-R);
# rping and ucmatose again over IPv6 addresses.  A connection to a port
# nobody listens on is rejected.
. "$(dirname "$0")/lib.sh"

require_cmd rping ucmatose udaddy rdma_server rdma_client ib_write_bw
# librdmacm's device file (/dev/infiniband/rdma_cm).
check "modprobe rdma_ucm" modprobe rdma_ucm || done_testing
mrc_verbs_setup

# The MAD layer's QP1 on each instance: a kernel GSI QP of ours.
check_output "h1: QP 1 (GSI) of the MAD layer on $H1_DEV" \
	"link $H1_DEV/1 lqpn 1 type GSI state RTS" \
	ns_exec h1 rdma resource show qp link "$H1_DEV/1"

# kverbs_test DEV: tools/testing/kverbs' module, a kernel verbs consumer,
# runs its checks on DEV when loaded (the load fails if one fails); its
# lines of the kernel log, then rmmod.
KVERBS_KO=$REPO/tools/testing/kverbs/mrc_kverbs_test.ko
kverbs_test() {
	local rc
	dmesg -C
	insmod "$KVERBS_KO" dev="$1"
	rc=$?
	dmesg | grep -o "mrc_kverbs_test: .*"
	[ $rc -eq 0 ] && rmmod mrc_kverbs_test
}
if [ -f "$KVERBS_KO" ]; then
	check_output "kernel verbs on $H1_DEV: a UD QP's good and bad WQEs" \
		"^mrc_kverbs_test: [1-9][0-9]* passed, 0 failed" kverbs_test "$H1_DEV"
else
	skip "kernel verbs on $H1_DEV" "$KVERBS_KO not built (make module)"
fi

# cm_pair DESC PORT CLIENT_RE SERVER_RE SERVER_CMD... -- CLIENT_CMD...:
# lib.sh's cmd_pair with a server that listens on an rdma_cm ID.
cm_pair() {
	cmd_pair rdma_cm "$@"
}

# rping: 5 RDMA READ/WRITE round trips, each buffer compared (-V): a
# wrong byte is "data mismatch" and exit status 1.
cm_pair "rping -V" 7174 "^ping data: rdma-ping-4: " \
	"^server ping data: rdma-ping-4: " \
	rping -s -a 10.0.0.1 -p 7174 -V -v -C 5 -- \
	rping -c -a 10.0.0.1 -p 7174 -V -v -C 5
# ucmatose: 2 connections, 10 SENDs each way, checked completions.
cm_pair "ucmatose" 7471 "^test complete" "^test complete" \
	ucmatose -b 10.0.0.1 -p 7471 -c 2 -C 10 -- \
	ucmatose -s 10.0.0.1 -p 7471 -c 2 -C 10
# udaddy: UD QPs, addressed by what rdma_cm resolved (SIDR on QP1);
# its port is fixed (7174, rping's: rping is gone by now).
cm_pair "udaddy" 7174 "^test complete" "^test complete" \
	udaddy -b 10.0.0.1 -C 10 -- \
	udaddy -s 10.0.0.1 -C 10
cm_pair "rdma_server/rdma_client" 7473 "^rdma_client: end 0" \
	"^rdma_server: end 0" \
	rdma_server -s 10.0.0.1 -p 7473 -- \
	rdma_client -s 10.0.0.1 -p 7473
cm_pair "ib_write_bw -R" 18515 "$PERF_BW_RE" "" \
	ib_write_bw -R -d "$H1_DEV" -F -n 200 -- \
	ib_write_bw -R -d "$H2_DEV" -F -n 200 10.0.0.1

# IPv6: the same over GIDs of IPv6 addresses (fd00::1 and fd00::2 on
# e0), rping with verified data and ucmatose.
v6_hosts() {
	ip -n h1 addr add fd00::1/64 dev e0 nodad &&
		ip -n h2 addr add fd00::2/64 dev e0 nodad &&
		wait_output "GID\[ *[0-9]+\]:[[:space:]]+fd00::1," \
			ns_exec h1 ibv_devinfo -v -d "$H1_DEV" &&
		wait_output "GID\[ *[0-9]+\]:[[:space:]]+fd00::2," \
			ns_exec h2 ibv_devinfo -v -d "$H2_DEV"
}
check "h1 and h2 have GIDs of fd00::1 and fd00::2" v6_hosts
cm_pair "IPv6: rping -V" 7175 "^ping data: rdma-ping-2: " \
	"^server ping data: rdma-ping-2: " \
	rping -s -a fd00::1 -p 7175 -V -v -C 3 -- \
	rping -c -a fd00::1 -p 7175 -V -v -C 3
cm_pair "IPv6: ucmatose" 7476 "^test complete" "^test complete" \
	ucmatose -b fd00::1 -p 7476 -C 10 -- \
	ucmatose -s fd00::1 -p 7476 -C 10

# Nobody listens on port 7999: the peer's CM rejects the REQ (rping
# prints the event and exits non-zero).
check_output_fail "rping to a port nobody listens on: rejected" \
	"RDMA_CM_EVENT_REJECTED" \
	ns_exec h2 timeout -k 5 30 rping -c -a 10.0.0.1 -p 7999 -C 1

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
