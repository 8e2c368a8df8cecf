#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 400
#
# Shared receive queues (issue 15) between h1 and h2 over $H1_DEV/$H2_DEV:
# Debian's unmodified ibv_srq_pingpong (several QPs sharing one SRQ at
# the server and at the client, received buffers validated with -c), in
# both events and polling mode; then mrc_srq_check: device limits,
# create/query/resize, the limit event, one SRQ shared by three QPs (data
# and qp_num checked), RNR retries while the SRQ is empty, a bad lkey in
# an SRQ WQE (IBV_WC_LOC_PROT_ERR, LAST_WQE_REACHED), a QP moved to ERR
# that leaves the SRQ's WQEs to the other QPs, destroy refused with QPs
# attached (EBUSY).
. "$(dirname "$0")/lib.sh"

require_cmd rdma ibv_devinfo ibv_srq_pingpong ss "$VERBS_BIN/mrc_srq_check"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

# ibv_srq_pingpong prints the rc_pingpong result line once all its QPs
# are done; with -c a corrupted buffer makes it fail.
app_pair "ibv_srq_pingpong -q 4 -c" "$PINGPONG_RE" h1 "$H1_DEV" h2 "$H2_DEV" \
	10.0.0.1 18515 ibv_srq_pingpong -g 1 -q 4 -r 64 -n 100 -c
app_pair "ibv_srq_pingpong -q 8 -s 8192 -e -c" "$PINGPONG_RE" h1 "$H1_DEV" h2 "$H2_DEV" \
	10.0.0.1 18515 ibv_srq_pingpong -g 1 -q 8 -r 32 -s 8192 -n 30 -e -c

SRQ_RE='^# mrc_srq_check: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* commands, 0 errors)$'
VERBS_DIAG_RE="^(ok|not ok|# mrc_srq_check)" VERBS_TIMEOUT=200 verbs_pair "mrc_srq_check" "$SRQ_RE" \
	h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_srq_check --qp-timeout=14 --retry=7

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
