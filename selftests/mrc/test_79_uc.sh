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

require_cmd rdma ibv_devinfo ibv_uc_pingpong ib_send_bw ib_write_bw ss \
	python3 "$MRCCTL" "$VERBS_BIN/mrc_uc_check"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

# app DESC RE PORT PROG ARG...: PROG on $H1_DEV in h1 (server) and h2 (client).
app() {
	local desc=$1 re=$2 port=$3
	shift 3
	app_pair "$desc" "$re" h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 "$port" "$@"
}

# uc_drop: h1's rx_uc_drop counter (empty if there is no such counter).
uc_drop() {
	ns_exec h1 "$MRCCTL" -j -s dev show dev "$H1_DEV" 2>/dev/null | python3 -S -c '
import json, sys
try:
    v = json.load(sys.stdin)[0]["stats"]["rx_uc_drop"]
except Exception:
    sys.exit(0)
print(v)'
}

app "ibv_uc_pingpong -c" "$PINGPONG_RE" 18515 ibv_uc_pingpong -g 1 -n 100 -c
app "ibv_uc_pingpong -s 4096 -e -c" "$PINGPONG_RE" 18515 \
	ibv_uc_pingpong -g 1 -s 4096 -n 50 -e -c
# Fewer iterations than the server's receive depth: UC drops a SEND
# that finds no receive, and perftest's server would wait for it.
PERF=(-x 1 -F -c UC)
app "ib_send_bw -c UC" "$PERF_BW_RE" 18515 ib_send_bw "${PERF[@]}" -n 100
app "ib_write_bw -c UC" "$PERF_BW_RE" 18515 ib_write_bw "${PERF[@]}" -n 100

check_output "rx_uc_drop is a counter of the instance (mrcctl -s dev show)" \
	'^[0-9]+$' uc_drop
check_output "... and of rdma statistic" 'rx_uc_drop [0-9]+' \
	ns_exec h1 rdma statistic show link "$H1_DEV/1"
before=$(uc_drop)
UC_RE='^# mrc_uc_check: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* commands, 0 errors)$'
VERBS_DIAG_RE="^(ok|not ok|# mrc_uc_check)" VERBS_TIMEOUT=120 verbs_pair "mrc_uc_check" "$UC_RE" \
	h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_uc_check
after=$(uc_drop)
# The SEND without a receive and the WRITE_WITH_IMM with a bad rkey.
if [ -n "$before" ] && [ -n "$after" ] && [ $((after - before)) -eq 2 ]; then
	ok "rx_uc_drop counted the 2 dropped messages"
else
	not_ok "rx_uc_drop counted the 2 dropped messages"
	diag "rx_uc_drop before '${before}', after '${after}'"
fi

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
