#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 600
#
# Error semantics of mrc's RC QPs, between h1 and h2 over mrc0:
#  - mrc_negative: bad rkey, out-of-bounds WRITE and READ, WRITE without
#    REMOTE_WRITE, unaligned atomic, flush after the first error, post
#    before RTS, bad lkey, destroy with work outstanding, retry exceeded
#    (each on a fresh QP pair, the statuses the IB specification demands);
#  - the peer disappears in the middle of a transfer (its netdev, and with
#    it its mrc0, is deleted): the client ends within its retry budget with
#    failed completions instead of hanging, both processes exit, both
#    instances go away and the module unloads.  run.sh checks dmesg.
. "$(dirname "$0")/lib.sh"

mrc_load || done_testing
check "two hosts h1/h2 with mrc0 on e0" mrc_two_hosts || done_testing

NEG_RE='^# mrc_negative: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* sessions, 0 errors)$'
VERBS_TIMEOUT=300 verbs_pair "mrc_negative (qp-timeout 10, retry 1)" "$NEG_RE" \
	h1 mrc0 h2 mrc0 10.0.0.1 mrc_negative --qp-timeout=10 --retry=1

# --- The peer disappears mid-transfer. ---
slog=$(mktemp)
clog=$(mktemp)
ns_exec h1 timeout -k 5 300 "$VERBS_BIN/mrc_verify" -d mrc0 -g 1 --timeout=240 \
	</dev/null >"$slog" 2>&1 &
spid=$!
# A long run (~1 GB at most): it cannot finish before the link goes.
ns_exec h2 timeout -k 5 300 "$VERBS_BIN/mrc_verify" -d mrc0 -g 1 --timeout=240 \
	--count=2000 --max-size=1M --qp-timeout=14 --retry=7 --seed=201 10.0.0.1 \
	</dev/null >"$clog" 2>&1 &
cpid=$!

# client_status: exit status of the client, or "running".
transfer_started() { grep -q "^mrc_verify: client on" "$clog"; }
check "the long transfer starts" wait_for 60 transfer_started
sleep 2
check "the transfer is still running when the peer goes" kill -0 "$cpid"
t0=$SECONDS
check "ip -n h1 link del e0 (the server's netdev and its mrc0 go)" ip -n h1 link del e0

# Retry budget: 8 x 67 ms for the QP; 60 s covers TCG and the RDMA core's
# deferred work.
gone() { ! kill -0 "$1" 2>/dev/null; }
if check "the client exits within 60 s of the link deletion" wait_for 60 gone "$cpid"; then
	wait "$cpid"
	rc=$?
	diag "client exited with status $rc after $((SECONDS - t0)) s"
	_mrc_out=$(cat "$clog")
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] &&
		grep -Eq '^mrc_verify: [0-9]+ messages, [0-9]+ bytes, 0 corrupted bytes, [1-9][0-9]* failed completions$' <<<"$_mrc_out"; then
		ok "the client reports failed completions, no corruption, and fails"
	else
		not_ok "the client reports failed completions, no corruption, and fails"
		_mrc_explain "client exit status $rc; output:" mrc_verify client
	fi
else
	not_ok "the client reports failed completions, no corruption, and fails"
	_mrc_out=$(cat "$clog")
	_mrc_explain "the client still runs; output:" mrc_verify client
	kill -9 "$cpid" 2>/dev/null
fi

# The server lost its device under it: it must not be stuck in the
# kernel (a SIGKILL ends it at once).
kill -9 "$spid" 2>/dev/null
check "the server process exits when killed" wait_for 20 gone "$spid"
wait "$spid" 2>/dev/null
rm -f "$slog" "$clog"

check "h1's mrc0 is gone" wait_for 30 no_mrc0 h1
check "h2's mrc0 is gone (its veth end went too)" wait_for 30 no_mrc0 h2
check "rmmod mrc after the programs exited" mrc_unload_wait 20

done_testing
