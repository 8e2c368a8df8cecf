#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# The verbs beyond the basic post/poll path that rdma_rxe offers through
# the same rxe provider, between h1 and h2 over $H1_DEV/$H2_DEV (issue
# 15), by mrc_verbs_ext: ibv_query_device_ex; ibv_create_cq_ex with every
# wc field the provider reads and its refusals; ibv_create_qp_ex with
# send_ops_flags and every RC operation posted through ibv_wr_*, the
# completions read through the extended CQ at both ends, data and atomic
# results checked; ibv_rereg_mr refused as on rxe, the MR unchanged;
# memory windows of type 1 and 2 (bind, WRITE and READ through the
# window's rkey, a remote access error one byte beyond it, from a QP a
# type 2 window is not bound to, after a rebind, a local invalidate and
# a SEND_WITH_INV).  EXT_OPTS (e.g. "--case=mw1") go to the client.
. "$(dirname "$0")/lib.sh"

mrc_verbs_setup "$VERBS_BIN/mrc_verbs_ext"
tap_pair mrc_verbs_ext --qp-timeout=12 --retry=2 ${EXT_OPTS:-}

check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
