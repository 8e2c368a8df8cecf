#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 900
#
# A malicious responder against a real mrc requester QP
# (build/bin/mrc_rogue_peer): h1 has an mrc instance on e0 (10.0.0.1);
# h2 has 10.0.0.2 and no mrc instance, so its UDP port 4791 is free for
# "mrc_rogue_peer peer", which speaks the wire format with mrcproto's
# encoder and plays the QP's peer.  "mrc_rogue_peer victim" in h1 connects
# an RC QP to 10.0.0.2 (fixed peer QPN and PSN: the peer learns the
# victim's from its requests) and posts READs, fetch-and-adds and WRITEs
# from a canary-filled buffer.  Per scenario the peer answers with
# duplicated (dup-atomic), duplicated and reordered (dup-reorder),
# mismatched (mismatch: wrong opcode for the rsn, a length not the READ's,
# rsns not outstanding) responses, or aims an ATOMIC_RESP at the WRITE
# that reuses an atomic's ring slot (slot-reuse).  Each scenario passes if
#   - the victim: every work request completed once, successfully; no
#     byte outside the answered READ/atomic buffers changed; the QP is
#     still RTS and a last READ works;
#   - the peer: every crafted response that matches no outstanding
#     request was refused (NACKed), every right one accepted;
#   - rx_bad_resp (mrcctl -s dev show) grew by exactly the number the
#     peer saw refused.
# run.sh reads dmesg for oopses and warnings.
set -u
. "$(dirname "$0")/lib.sh"

ROGUE=${MRC_ROGUE:-$REPO/build/bin/mrc_rogue_peer}
mrc_tmpdir

# bad_resp: h1's rx_bad_resp counter (empty if there is no such counter).
bad_resp() {
	ns_exec h1 "$MRCCTL" -j -s dev show dev "$H1_DEV" 2>/dev/null | python3 -S -c '
import json, sys
try:
    v = json.load(sys.stdin)[0]["stats"]["rx_bad_resp"]
except Exception:
    sys.exit(0)
print(v)'
}

check "mrc_rogue_peer is built" test -x "$ROGUE" || done_testing
require_cmd rdma python3 "$MRCCTL" "$ROGUE"
mrc_load || done_testing
check "h1 and h2" eval "ns_create h1 && ns_create h2" || done_testing
check "h1 e0 10.0.0.1/24 <-> h2 e0 10.0.0.2/24" \
	veth_pair h1 e0 10.0.0.1/24 h2 e0 10.0.0.2/24 || done_testing
check "rdma link add $H1_DEV type mrc netdev e0 (h1 only)" \
	ns_exec h1 rdma link add "$H1_DEV" type mrc netdev e0 || done_testing
check "GID 1 of $H1_DEV is ::ffff:10.0.0.1" mrc_wait_gid h1 "$H1_DEV" 10.0.0.1
check_output "rx_bad_resp is a counter of the instance (mrcctl -s dev show)" \
	'^[0-9]+$' bad_resp
check_output "... and of rdma statistic" 'rx_bad_resp [0-9]+' \
	ns_exec h1 rdma statistic show link "$H1_DEV/1"

for s in dup-atomic dup-reorder mismatch slot-reuse; do
	before=$(bad_resp)
	ns_exec h2 "$ROGUE" peer --bind 10.0.0.2 --scenario "$s" -t 120 \
		>"$tmp/peer.$s" 2>&1 &
	peer=$!
	check "$s: the peer listens in h2" \
		wait_line "$tmp/peer.$s" '^mrc_rogue_peer: peer: .*: listening'
	check_output "$s: victim: exactly-once completions, no stray write, QP works" \
		"^mrc_rogue_peer: victim: $s: [0-9]+ completions, 0 bytes changed outside the answered buffers, 0 failure\\(s\\)$" \
		ns_exec h1 "$ROGUE" victim -d "$H1_DEV" -g 1 --peer 10.0.0.2 \
		--scenario "$s" -t 20
	end_server "$peer" 30
	prc=$?
	sum=$(grep "^mrc_rogue_peer: peer: $s: crafted" "$tmp/peer.$s")
	if [ $prc -eq 0 ] && [ -n "$sum" ]; then
		ok "$s: peer: crafted responses refused, right ones accepted ($sum)"
	else
		not_ok "$s: peer: crafted responses refused, right ones accepted"
		diag "exit status $prc; output:"
		sed 's/^/#   /' "$tmp/peer.$s"
	fi
	refused=$(sed -n 's/.* refused \([0-9]*\),.*/\1/p' <<<"$sum")
	after=$(bad_resp)
	if [ -n "$before" ] && [ -n "$after" ] && [ -n "$refused" ] &&
		[ $((after - before)) -eq "$refused" ] && [ "$refused" -gt 0 ]; then
		ok "$s: rx_bad_resp counted the $refused refused response(s)"
	else
		not_ok "$s: rx_bad_resp counted the refused responses"
		diag "rx_bad_resp before '${before}', after '${after}', peer refused '${refused}'"
	fi
done

check "rdma link del $H1_DEV" ns_exec h1 rdma link del "$H1_DEV"
check "rmmod mrc: nothing left behind" mrc_unload

done_testing
