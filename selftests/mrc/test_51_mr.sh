#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Memory regions and address handles through the stock rxe provider
# (tools/testing/verbs/mrc_mr_check.cc): registration sizes, access rules,
# keys, leaks, RoCE v2 AHs; the MRs a process holds are listed by
# "rdma res show mr" and released when it dies; rmmod afterwards.
. "$(dirname "$0")/lib.sh"

PROG=$REPO/build/bin/mrc_mr_check

# mr_count DEV: the number of MRs "rdma res show mr" lists on DEV.
mr_count() {
	local out
	out=$(rdma res show mr) || return 1
	grep -c "^dev $1 " <<<"$out"
	return 0
}

# Two hosts as mrc_two_hosts builds them (h1 e0 10.0.0.1, h2 e0 10.0.0.2),
# but with distinct instance names: in the RDMA core's default "shared"
# namespace mode ib_device names are global, so a second "mrc0" is refused
# (ENFILE), and in "exclusive" mode the instances would stay in init_net.
two_hosts() {
	ns_create h1 && ns_create h2 || return 1
	veth_pair h1 e0 10.0.0.1/24 h2 e0 10.0.0.2/24 || return 1
	ns_exec h1 rdma link add mrc0 type mrc netdev e0 || return 1
	ns_exec h2 rdma link add mrc1 type mrc netdev e0 || return 1
	wait_output "GID\[ *1\]:[[:space:]]+::ffff:10\.0\.0\.1" \
		ibv_devinfo -v -d mrc0
}

require_cmd rdma ibv_devinfo "$PROG"
mrc_load || done_testing
check "two hosts: mrc0 in h1, mrc1 in h2" two_hosts || done_testing
[ -x "$PROG" ] || { not_ok "$PROG is built (make)"; done_testing; }

if check "mrc_mr_check in h1: MRs, keys, leaks, AHs" \
	ns_exec h1 "$PROG" -d mrc0 -g 1 -r 10.0.0.2; then
	diag "$_mrc_out"
fi
check_output "no MR left after it exits" "^0$" mr_count mrc0

# A process that dies holding MRs: the core deregisters them for it.
ns_exec h1 "$PROG" -d mrc0 -H 8 >/dev/null 2>&1 &
holder=$!
check "rdma res show mr lists the 8 MRs a process holds" \
	wait_output "^8$" mr_count mrc0
check_output "... with their length and owner" "mrlen 4096 .*comm mrc_mr_check" \
	rdma res show mr dev mrc0
check_output "the other instance has none of them" "^0$" mr_count mrc1
# $holder may be the subshell around "ip netns exec": kill the program.
kill "$holder" 2>/dev/null
pkill -x mrc_mr_check 2>/dev/null
wait "$holder" 2>/dev/null
check "the MRs of a killed process are released" wait_output "^0$" mr_count mrc0

check "rdma link del mrc0" rdma link del mrc0
check "rdma link del mrc1" rdma link del mrc1
check "rmmod" mrc_unload

done_testing
