#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 900
#
# Unmodified Debian verbs programs over $H1_DEV/$H2_DEV between two namespaces (h1 the
# server, h2 the client): ibv_rc_pingpong (rdma-core's examples) and
# perftest's bandwidth and latency tests for SEND, RDMA WRITE, RDMA READ
# and atomics.  They use the stock rxe provider, so passing means the
# device speaks the rxe user ABI and the RC data path works for them.
# Each program: the server listens, the client exits 0 and prints its
# result line with a non-zero rate, the server exits 0.  Iteration counts
# are small: under TCG every test takes seconds.
. "$(dirname "$0")/lib.sh"

mrc_verbs_setup ibv_rc_pingpong ib_write_bw ib_read_bw ib_send_bw ib_atomic_bw ib_write_lat ib_read_lat ib_send_lat ss

PERF=(-x 1 -F)
h1h2_app "ibv_rc_pingpong" "$PINGPONG_RE" 18515 ibv_rc_pingpong -g 1 -n 100
h1h2_app "ibv_rc_pingpong 64 KiB" "$PINGPONG_RE" 18515 ibv_rc_pingpong -g 1 -s 65536 -n 100
h1h2_app "ib_send_bw" "$PERF_BW_RE" 18515 ib_send_bw "${PERF[@]}" -n 200
h1h2_app "ib_send_lat" "$PERF_LAT_RE" 18515 ib_send_lat "${PERF[@]}" -n 200
h1h2_app "ib_write_bw" "$PERF_BW_RE" 18515 ib_write_bw "${PERF[@]}" -n 200
h1h2_app "ib_write_lat" "$PERF_LAT_RE" 18515 ib_write_lat "${PERF[@]}" -n 200
h1h2_app "ib_read_bw" "$PERF_BW_RE" 18515 ib_read_bw "${PERF[@]}" -n 200
h1h2_app "ib_read_lat" "$PERF_LAT_RE" 18515 ib_read_lat "${PERF[@]}" -n 200
h1h2_app "ib_atomic_bw (fetch-and-add)" "$PERF_BW_RE" 18515 ib_atomic_bw "${PERF[@]}" -n 200
h1h2_app "ib_atomic_bw (compare-and-swap)" "$PERF_BW_RE" 18515 ib_atomic_bw "${PERF[@]}" -n 200 \
	-A CMP_AND_SWAP
# Large messages: segmentation over many MTU-sized packets.
h1h2_app "ib_write_bw 1 MiB" "$PERF_BW_RE" 18515 ib_write_bw "${PERF[@]}" -n 20 -s 1048576
h1h2_app "ib_send_bw 1 MiB" "$PERF_BW_RE" 18515 ib_send_bw "${PERF[@]}" -n 20 -s 1048576

# The same programs must fail visibly when there is no server: the checks
# above can fail.
check_fail "ibv_rc_pingpong without a server fails" \
	ns_exec h2 timeout 30 ibv_rc_pingpong -d "$H2_DEV" -g 1 -p 18599 10.0.0.1

check "the namespaces go, then rmmod mrc works" mrc_unload_wait 20

done_testing
