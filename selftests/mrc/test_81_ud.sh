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

require_cmd rdma ibv_devinfo ibv_ud_pingpong ib_send_bw ib_send_lat ss \
	python3 "$MRCCTL" "$VERBS_BIN/mrc_ud_check"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

# app DESC RE PORT PROG ARG...: PROG on $H1_DEV in h1 (server) and h2 (client).
app() {
	local desc=$1 re=$2 port=$3
	shift 3
	app_pair "$desc" "$re" h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 "$port" "$@"
}

# ud_drop: h1's rx_ud_drop counter (empty if there is no such counter).
ud_drop() {
	ns_exec h1 "$MRCCTL" -j -s dev show dev "$H1_DEV" 2>/dev/null | python3 -S -c '
import json, sys
try:
    v = json.load(sys.stdin)[0]["stats"]["rx_ud_drop"]
except Exception:
    sys.exit(0)
print(v)'
}

# Messages of at most the port's MTU (1024 on e0's 1500 bytes): a UD
# message is one packet.  ibv_ud_pingpong posts its receives with room
# for the GRH.
app "ibv_ud_pingpong -c" "$PINGPONG_RE" 18515 \
	ibv_ud_pingpong -g 1 -s 1024 -n 100 -c
app "ibv_ud_pingpong -s 64 -e -c" "$PINGPONG_RE" 18515 \
	ibv_ud_pingpong -g 1 -s 64 -n 50 -e -c
# UD has no flow control: the server's receive depth covers every
# iteration, so that no datagram finds the ring empty.
PERF=(-x 1 -F -c UD -s 512)
app "ib_send_bw -c UD" "$PERF_BW_RE" 18515 ib_send_bw "${PERF[@]}" \
	-n 200 -r 256
app "ib_send_lat -c UD" "$PERF_LAT_RE" 18515 ib_send_lat "${PERF[@]}" \
	-n 200

check_output "rx_ud_drop is a counter of the instance (mrcctl -s dev show)" \
	'^[0-9]+$' ud_drop
check_output "... and of rdma statistic" 'rx_ud_drop [0-9]+' \
	ns_exec h1 rdma statistic show link "$H1_DEV/1"
before=$(ud_drop)
UD_RE='^# mrc_ud_check: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* commands, 0 errors)$'
VERBS_DIAG_RE="^(ok|not ok|# mrc_ud_check)" VERBS_TIMEOUT=120 verbs_pair "mrc_ud_check" "$UD_RE" \
	h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_ud_check
after=$(ud_drop)
# The SEND with another Q_Key and the SEND without a receive posted.
if [ -n "$before" ] && [ -n "$after" ] && [ $((after - before)) -eq 2 ]; then
	ok "rx_ud_drop counted the 2 dropped datagrams"
else
	not_ok "rx_ud_drop counted the 2 dropped datagrams"
	diag "rx_ud_drop before '${before}', after '${after}'"
fi

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
