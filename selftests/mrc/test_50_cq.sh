#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Completion queues through the stock rxe provider (build/bin/mrc_cq_check):
# creation limits, completion channels, arming, empty polls, resizing, many
# CQs and the per-device CQ limit; then nothing is left behind and the
# module unloads.  Completions with data are tested with the QP data path.
# The req_notify_cq checks need IB_USER_VERBS_CMD_REQ_NOTIFY_CQ in the
# device's uverbs_cmd_mask (device.c), as rxe sets it: the core leaves that
# write command disabled otherwise (EOPNOTSUPP).
. "$(dirname "$0")/lib.sh"

CQ_CHECK=$REPO/build/bin/mrc_cq_check

# Lines of "rdma res show cq" that are user CQs of mrc0 (the core lists
# each CQ as "dev mrc0 cqn N ..."; the MAD layer's CQ of QP1 is a kernel
# one, listed with "comm [ib_core]").
user_cqs() {
	rdma res show cq | awk '/^dev mrc0 / && !/comm \[/'
}

cq_count() {
	user_cqs | grep -c .
}

require_cmd rdma "$CQ_CHECK"
mrc_load || { done_testing; }
veth_pair - c0a 10.0.5.1/24 - c0b 10.0.5.2/24

check "rdma link add mrc0 type mrc netdev c0a" \
	rdma link add mrc0 type mrc netdev c0a
check "mrc_cq_check is built" test -x "$CQ_CHECK"
check "no CQ on mrc0 before the test" test "$(cq_count)" -eq 0
check_output "mrc_cq_check -d mrc0: every CQ verb check passes" \
	"# [0-9]+ passed, 0 failed" "$CQ_CHECK" -d mrc0
check "rdma res show cq: no CQ left on mrc0 afterwards" \
	test "$(cq_count)" -eq 0
check_fail "mrc_cq_check on a missing device fails" "$CQ_CHECK" -d mrc_nodev

# The count above means something only if the CQs of a live program show.
"$CQ_CHECK" -d mrc0 -H 5 >/dev/null &
holder=$!
check "rdma res show cq lists the CQs a running program holds" \
	wait_output "^dev mrc0 " user_cqs
check "rdma res show cq: 3 CQs on mrc0" test "$(cq_count)" -eq 3
# Not inside check: its command runs in a subshell, which has no children.
wait "$holder"
holder_rc=$?
check "the holding program exits cleanly" test "$holder_rc" -eq 0
check "its CQs are gone with it" wait_no_output "^dev mrc0 " user_cqs

check "rdma link del mrc0" rdma link del mrc0
check "rmmod mrc after the CQ tests" mrc_unload
check_fail "mrc is unloaded" test -d /sys/module/mrc

done_testing
