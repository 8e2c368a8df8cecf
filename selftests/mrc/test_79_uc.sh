#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# UC queue pairs (issue 15) between h1 and h2 over $H1_DEV/$H2_DEV:
# Debian's unmodified ibv_uc_pingpong (received buffers validated with
# -c), in polling and events mode; perftest's ib_send_bw and ib_write_bw
# with -c UC; then mrc_uc_check: create limits, UC on an SRQ refused,
# query_qp, UC's modify masks, a SEND without a receive posted dropped
# (the QP stays RTS, the next SEND is delivered), WRITE and
# WRITE_WITH_IMM with a bad rkey dropped without telling the sender,
# READ and ATOMIC refused (IBV_WC_LOC_QP_OP_ERR); the receiver's
# rx_uc_drop counter counts the two dropped messages.
. "$(dirname "$0")/lib.sh"

mrc_verbs_setup ibv_uc_pingpong ib_send_bw ib_write_bw ss python3 \
	"$MRCCTL" "$VERBS_BIN/mrc_uc_check"

h1h2_app "ibv_uc_pingpong -c" "$PINGPONG_RE" 18515 ibv_uc_pingpong -g 1 -n 100 -c
h1h2_app "ibv_uc_pingpong -s 4096 -e -c" "$PINGPONG_RE" 18515 \
	ibv_uc_pingpong -g 1 -s 4096 -n 50 -e -c
# Fewer iterations than the server's receive depth: UC drops a SEND
# that finds no receive, and perftest's server would wait for it.
PERF=(-x 1 -F -c UC)
h1h2_app "ib_send_bw -c UC" "$PERF_BW_RE" 18515 ib_send_bw "${PERF[@]}" -n 100
h1h2_app "ib_write_bw -c UC" "$PERF_BW_RE" 18515 ib_write_bw "${PERF[@]}" -n 100

# The SEND without a receive and the WRITE_WITH_IMM with a bad rkey.
drop_check_pair mrc_uc_check rx_uc_drop 2 messages

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
