#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# UD queue pairs (issue 15) between h1 and h2 over $H1_DEV/$H2_DEV:
# Debian's unmodified ibv_ud_pingpong (received buffers validated with
# -c), in polling and events mode; perftest's ib_send_bw and ib_send_lat
# with -c UD; then mrc_ud_check: UD on an SRQ refused, query_qp, UD's
# modify masks, multicast attach refused, a SEND landing after the GRH
# that holds the sender's address (src_qp, IBV_WC_GRH, byte_len),
# SEND_WITH_IMM, a wrong Q_Key and a datagram without a receive dropped
# and counted, the high-bit Q_Key rule, a receive buffer too small
# (IBV_WC_LOC_LEN_ERR), a SEND above the path MTU (IBV_WC_LOC_LEN_ERR)
# and an RDMA WRITE (IBV_WC_LOC_QP_OP_ERR) ending in SQE, and SQE -> RTS.
# The receiver's rx_ud_drop counter (mrcctl, rdma statistic) counts the
# two dropped datagrams.
. "$(dirname "$0")/lib.sh"

mrc_verbs_setup ibv_ud_pingpong ib_send_bw ib_send_lat ss python3 \
	"$MRCCTL" "$VERBS_BIN/mrc_ud_check"

# Messages of at most the port's MTU (1024 on e0's 1500 bytes): a UD
# message is one packet.  ibv_ud_pingpong posts its receives with room
# for the GRH.
h1h2_app "ibv_ud_pingpong -c" "$PINGPONG_RE" 18515 \
	ibv_ud_pingpong -g 1 -s 1024 -n 100 -c
h1h2_app "ibv_ud_pingpong -s 64 -e -c" "$PINGPONG_RE" 18515 \
	ibv_ud_pingpong -g 1 -s 64 -n 50 -e -c
# UD has no flow control: the server's receive depth covers every
# iteration, so that no datagram finds the ring empty.
PERF=(-x 1 -F -c UD -s 512)
h1h2_app "ib_send_bw -c UD" "$PERF_BW_RE" 18515 ib_send_bw "${PERF[@]}" \
	-n 200 -r 256
h1h2_app "ib_send_lat -c UD" "$PERF_LAT_RE" 18515 ib_send_lat "${PERF[@]}" \
	-n 200

# The SEND with another Q_Key and the SEND without a receive posted.
drop_check_pair mrc_ud_check rx_ud_drop 2 datagrams

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
