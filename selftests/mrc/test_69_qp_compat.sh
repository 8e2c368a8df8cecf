#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# RC QP behaviours that real programs rely on as rdma_rxe has them, between
# h1 and h2 over $H1_DEV/$H2_DEV (issue 15):
#  - mrc_qp_compat: QPs with max_recv_wr 0 or max_send_wr 0 (and max_*_sge
#    0) are created and posting to the zero queue fails with ENOMEM; a
#    sender without receive queue WRITEs and SENDs to a responder without
#    send queue, which answers READs too; a SEND to a QP without receive
#    queue is NAKed RNR (RNR retry exceeded at the requester, the QP stays
#    in RTS); ibv_destroy_qp with work outstanding puts no completion of
#    it into the CQ while another QP on the same CQ keeps its completions
#    and works on; modify_qp to ERR still flushes every outstanding WR,
#    and ERR -> ERR flushes receives posted in ERR (busy polling, the CQ
#    never armed);
#  qperf's rc_bw and rc_rdma_write_bw (whose ends create exactly such
#  QPs) are not run here: without rdma_cm qperf addresses the peer by
#  LID with no GRH, which a RoCE device (rxe as mrc) refuses at RTR with
#  EINVAL; its rdma_cm mode (-cm1) runs in test_86 (rdma_cm itself:
#  test_84).
# COMPAT_OPTS (e.g. "--case=destroy") go to the client: a run of some
# cases only.
. "$(dirname "$0")/lib.sh"

mrc_verbs_setup "$VERBS_BIN/mrc_qp_compat"
tap_pair mrc_qp_compat ${COMPAT_OPTS:-}

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
