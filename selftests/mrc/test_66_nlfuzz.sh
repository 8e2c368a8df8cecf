#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 900
#
# The generic netlink family under random and mutated requests: h1's
# instance (three planes' worth of netdevs, a route and a live verified
# transfer to h2) gets MRC_NLFUZZ_COUNT (default 10000) requests from
# mrc_nlfuzz as root -- every command, unknown ones, wrong sizes, lying
# lengths, truncations, edge values -- then a tenth as many as an
# unprivileged user.  Every request must be answered (an ACK, an errno or
# the end of a dump), the unprivileged pass must change nothing, the
# transfer must not see a corrupted byte (failed completions are allowed:
# the fuzzer deletes planes and routes under it), and afterwards the
# instances go and the module unloads.  run.sh reads dmesg for warnings.
#   MRC_NLFUZZ_COUNT, MRC_NLFUZZ_SEED (default 1): the run is deterministic.
. "$(dirname "$0")/lib.sh"

count=${MRC_NLFUZZ_COUNT:-10000}
seed=${MRC_NLFUZZ_SEED:-1}
NLFUZZ=${MRC_NLFUZZ:-$REPO/build/bin/mrc_nlfuzz}
VERIFY_RE_NOCORRUPT='^mrc_verify: [0-9]+ messages, [0-9]+ bytes, 0 corrupted bytes, [0-9]+ failed completions$'

require_cmd rdma ibv_devinfo "$MRCCTL" "$VERBS_BIN/mrc_verify" "$NLFUZZ"
mrc_load || done_testing
mrc_tmpdir
check "two hosts" mrc_two_hosts
check "h1-h2: veths for planes 2 and 3" eval \
	'veth_pair h1 e1 10.1.0.1/24 h2 e1 10.1.0.2/24 && veth_pair h1 e2 10.2.0.1/24 h2 e2 10.2.0.2/24'
check "h1: plane 2" "$MRCCTL" -n h1 plane add dev "$H1_DEV" netdev e1
check "h1: a route to h2 over planes 1 and 2" "$MRCCTL" -n h1 route add 10.0.0.2 dev "$H1_DEV" \
	plane 1 via 10.0.0.2 plane 2 via 10.1.0.2

ns_bg h1 timeout -k 5 600 "$VERBS_BIN/mrc_verify" -d "$H1_DEV" -g 1 --timeout=580 \
	>"$tmp/server" 2>&1
srv=$BG_PID
ns_bg h2 timeout -k 5 600 "$VERBS_BIN/mrc_verify" -d "$H2_DEV" -g 1 --timeout=580 \
	--until-stopped --count=50 --max-size=256K --qp-timeout=10 --retry=3 10.0.0.1 \
	>"$tmp/client" 2>&1
cli=$BG_PID
check "a live QP for the fuzzer to find" wait_for 60 eval \
	"\"$MRCCTL\" -n h1 conn show dev $H1_DEV | grep -q 'state RTS'"

start=$SECONDS
check_output "root: $count requests, every one answered" \
	"^mrc_nlfuzz: $count requests .* 0 unanswered$" \
	ns_exec h1 "$NLFUZZ" --count "$count" --seed "$seed" --dev "$H1_DEV" \
	--netdev e1,e2,lo,e0 --peer 10.0.0.2
diag "$(printf '%s\n' "$_mrc_out" | tail -n 3)"
diag "root pass: $((SECONDS - start)) s"

# Unprivileged: the same instance, nothing may change.
ucount=$((count / 10))
snap() { "$MRCCTL" -n h1 -j plane show; "$MRCCTL" -n h1 -j route show; \
	"$MRCCTL" -n h1 -j ev-profile show; "$MRCCTL" -n h1 -j cc-profile show; }
before=$(snap 2>&1)
check_output "unprivileged: $ucount requests, every one answered" \
	"^mrc_nlfuzz: $ucount requests .* 0 unanswered$" \
	ns_exec h1 setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$NLFUZZ" --count "$ucount" --seed "$((seed + 1))" --dev "$H1_DEV" \
	--netdev e1,e2,lo,e0 --peer 10.0.0.2
diag "$(printf '%s\n' "$_mrc_out" | tail -n 3)"
after=$(snap 2>&1)
check "unprivileged: planes, routes and profiles unchanged" test "$before" = "$after"

kill -INT "$cli" 2>/dev/null
wait "$cli"
check_output "the transfer under the fuzzer: no corrupted byte" "$VERIFY_RE_NOCORRUPT" \
	cat "$tmp/client"
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null

check "h1's instance is deleted" ns_exec h1 rdma link del "$H1_DEV"
check "h2's instance is deleted" ns_exec h2 rdma link del "$H2_DEV"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
