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
#  - qperf's rc_bw and rc_rdma_write_bw (whose ends create exactly such
#    QPs), if qperf is installed; skipped otherwise.
# COMPAT_OPTS (e.g. "--case=destroy") go to the client: a run of some
# cases only.
. "$(dirname "$0")/lib.sh"

mrc_verbs_setup "$VERBS_BIN/mrc_qp_compat"
tap_pair mrc_qp_compat ${COMPAT_OPTS:-}

# qperf's bandwidth tests: the sender's QP has no receive queue, the
# server's no send queue.  qperf listens on TCP 19765.
if command -v qperf >/dev/null 2>&1; then
	ns_bg h1 timeout -k 5 120 qperf
	qpid=$BG_PID
	if check "qperf server listens in h1" wait_listen h1 19765 30; then
		check_output "qperf rc_bw and rc_rdma_write_bw h2 -> h1" \
			"bw += +$NZ_NUM" ns_exec h2 timeout -k 5 90 \
			qperf -li "$H2_DEV:1" -ri "$H1_DEV:1" -t 2 10.0.0.1 \
			rc_bw rc_rdma_write_bw
	fi
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
else
	skip "qperf rc_bw between the namespaces" "qperf not installed"
fi

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
