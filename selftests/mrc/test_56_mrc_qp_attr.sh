#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 600
#
# The mrc device's own uverbs methods (include/uapi/rdma/mrc-abi.h) and
# MRC QP semantics, between h1 (server) and h2 (client), by mrc_qp_attr
# (one TAP line per check, unprivileged methods on its own QPs):
#  - the device query's values (protocol V1, TRIM_NACK and SVC_TIME, WIMM, MPR,
#    timeout and retry limits, plane 1 up);
#  - every MODIFY refusal with its errno (unknown mask bits, reserved and
#    QUERY-only fields, flags, each range, profile ids above U32_MAX or
#    missing, DYNAMIC_MPR, each attribute in a state that does not allow
#    it) and the MODIFY/QUERY round trip;
#  - a WRITE_WITH_IMM to an MRC QP without receives: REM_INV_REQ_ERR (no
#    RNR);
#  - an MRC QP: WRITE works, max_wimm + 12 WRITE_WITH_IMM all complete with
#    at most max_wimm unacknowledged at once, SEND completes with
#    LOC_QP_OP_ERR; a verbs QP: the same burst all at once (the measure
#    sees more than max_wimm where there are no credits), SEND works;
#  - timeout and retry toward a QPN nobody has: fails after the configured
#    budget, in about the time it should take, and never with retry_exp 25.
. "$(dirname "$0")/lib.sh"

require_cmd rdma "$MRCCTL" "$VERBS_BIN/mrc_qp_attr"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

# A CC profile that exists: the round trip names it, and its QP's RTR
# uses it instead of the route's.
check "h2: cc-profile 7" ns_exec h2 "$MRCCTL" cc-profile add dev "$H2_DEV" id 7 algo uet-1.0-nscc

RE='^# mrc_qp_attr: ([1-9][0-9]* passed, 0 failed|server: 16 \+ 16 WRITE_IMM received, 1 SEND, 0 bad)$'
VERBS_DIAG_RE='passed|unacknowledged|REM_INV_REQ_ERR|RETRY_EXC_ERR|no failure' \
VERBS_TIMEOUT=200 verbs_pair "mrc_qp_attr" "$RE" \
	h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_qp_attr --cc-profile=7

check "rmmod mrc" mrc_unload_wait 20
done_testing
