#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 600
#
# Error semantics of mrc's RC QPs, between h1 and h2 over $H1_DEV/$H2_DEV:
#  - mrc_negative: bad rkey, out-of-bounds WRITE and READ, WRITE without
#    REMOTE_WRITE, unaligned atomic, flush after the first error, post
#    before RTS, bad lkey, destroy with work outstanding, retry exceeded,
#    remote ranges wrapping past 2^64, raw invalid WQEs in the send ring,
#    max_inline_data, SQD, dereg with a READ unacknowledged (each on a
#    fresh QP pair, the statuses the IB specification demands); a WQE
#    that makes the kernel warn fails the script through run.sh's dmesg
#    check;
#  - the peer stops answering in the middle of a transfer (netem drops
#    all its packets): the client fails with retry-exceeded completions;
#  - the peer disappears in the middle of a transfer (its netdev, and with
#    its instance with it, is deleted): the client ends within its retry budget with
#    failed completions instead of hanging, both processes exit, both
#    instances go away and the module unloads.  run.sh checks dmesg.
. "$(dirname "$0")/lib.sh"

require_cmd rdma ibv_devinfo "$VERBS_BIN/mrc_verify" "$VERBS_BIN/mrc_negative"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

NEG_RE='^# mrc_negative: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* sessions, 0 errors)$'
VERBS_TIMEOUT=300 verbs_pair "mrc_negative (qp-timeout 10, retry 1)" "$NEG_RE" \
	h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_negative --qp-timeout=10 --retry=1

# The peer stops answering mid-transfer (all its packets dropped): the
# requester's retries run out.  The budget of IB timeout 14 and retry 7 is
# 8 waits of 67.1 ms and 7 doubling ones (the engine's backoff_cnt 7,
# mrc-engine.rst): 262 x 67.1 ms = 17.6 s from the oldest unacknowledged
# packet, and new work (the client's liveness READ every second between
# batches) does not push it out.  Runs of over 60 s came from a READ that
# the peer ACKed but never answered, which had no timer at all (fixed in
# the engine, unit test EngineRetryBudget); the 60 s limit catches that
# again.
peer_loss "peer silent" h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 \
	netem_on h1 e0 loss 100%
netem_off h1 e0

# The peer's instance is removed mid-transfer ("rdma link del" while its
# program still has it open): the requester's retries run out, in the
# same 17.6 s.
peer_loss "peer instance deleted" h1 "$H1_DEV" h2 "$H2_DEV" \
	10.0.0.1 ip netns exec h1 rdma link del "$H1_DEV"
check "h1: the instance again" ip netns exec h1 rdma link add "$H1_DEV" type mrc netdev e0
check "h1: its GID again" mrc_wait_gid h1 "$H1_DEV" 10.0.0.1

# The peer's netdev disappears mid-transfer: deleting h1's e0 deletes the
# veth pair, so both instances lose their netdev, and the client's device
# may be taken away (disassociated) before its retries run out: a verb
# failing with EIO/ENODEV, or the server's end of the TCP channel closing
# (its device went too), then reports the loss instead of failed
# completions; 0 corrupted bytes either way.
PEER_LOSS_LOCAL_GONE=1 peer_loss "peer netdev deleted" h1 "$H1_DEV" h2 "$H2_DEV" \
	10.0.0.1 ip -n h1 link del e0

check "h1's $H1_DEV is gone" wait_for 30 no_rdma_link h1 "$H1_DEV"
check "h2's $H2_DEV is gone (its veth end went too)" \
	wait_for 30 no_rdma_link h2 "$H2_DEV"
check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
