#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 600
#
# mrc_verify between h1 (server, responder) and h2 (client, requester)
# over $H1_DEV/$H2_DEV: seeded random data with every RC operation (SEND,
# SEND_WITH_IMM, RDMA WRITE, WRITE_WITH_IMM, RDMA READ, compare-and-swap,
# fetch-and-add), every byte and every completion checked at both ends.
# First on a clean link, then with netem on each end in turn: loss,
# reordering, duplication, delay with jitter, corruption (caught by the
# ICRC: h1's rx_bad_icrc grows).  Reliable delivery means
# every run ends with 0 corrupted bytes and 0 failed completions at both
# ends.  Sizes run from 1 byte to 8 MiB in the clean run and in one lossy
# run; the other runs are smaller to stay within TCG's time.
#   MRC_VERIFY_BIG: the largest size of those two runs (default 8M; the
#   sanitizer lane, where every byte costs KASAN's checks, runs 1M).
. "$(dirname "$0")/lib.sh"

require_cmd rdma ibv_devinfo tc "$VERBS_BIN/mrc_verify"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

VERBS_TIMEOUT=${VERBS_TIMEOUT:-300}

big=${MRC_VERIFY_BIG:-8M}
verify_pair "clean: all ops, 1 B .. $big" --count=64 --max-size="$big" --seed=101
verify_pair "clean: small messages, depth 64" --count=500 --max-size=4K --depth=64 --seed=102
verify_pair "clean: MTU 256, up to 3 SGEs" --count=60 --max-size=64K --mtu=256 --seed=103

# impaired NAME NETEM_ARGS -- MRC_VERIFY_OPTION...: the same run with
# netem on h1's e0 (server egress: responses, ACKs) and then on h2's e0
# (client egress: requests).
impaired() {
	local name=$1 ns netem=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		netem+=("$1")
		shift
	done
	shift
	for ns in h1 h2; do
		if check "$ns e0: netem ${netem[*]}" netem_on "$ns" e0 "${netem[@]}"; then
			verify_pair "$name on $ns" "$@"
		fi
		netem_off "$ns" e0
	done
}

impaired "loss 1%" loss 1% -- --count=40 --max-size="$big" --seed=111
impaired "loss 5%" loss 5% -- --count=40 --max-size=512K --seed=112
impaired "reorder" delay 1ms reorder 25% 50% -- --count=40 --max-size=256K --seed=113
impaired "duplicate 5%" duplicate 5% -- --count=40 --max-size=256K --seed=114
impaired "delay 2ms jitter 1ms" delay 2ms 1ms -- --count=40 --max-size=256K --seed=115

# Corruption: netem flips a bit in the head of 5% of h2's packets (the
# requests; their payload of 256 bytes and more is in page frags, so the
# flip lands in the link, IP, UDP or MRC headers).  The IP checksum, UDP
# and the ICRC (over head and frags) drop them, h1 counts the ICRC ones,
# and the transfer recovers them as losses.  Only about one flip in five
# lands where the ICRC is what catches it: at 2% a run counted 5-8, and
# once none.
bad_icrc() {
	"$MRCCTL" -n h1 -j -s dev show dev "$H1_DEV" 2>/dev/null | python3 -S -c '
import json, sys
try:
    print(json.load(sys.stdin)[0]["stats"]["rx_bad_icrc"])
except Exception:
    print(-1)'
}
icrc0=$(bad_icrc)
if check "h2 e0: netem corrupt 5%" netem_on h2 e0 corrupt 5%; then
	verify_pair "corrupt 5% on h2" --count=40 --max-size=256K --seed=118
	icrc1=$(bad_icrc)
	check "h1 rx_bad_icrc grew ($icrc0 -> $icrc1)" \
		test "$icrc0" -ge 0 -a "$icrc1" -gt "$icrc0"
fi
netem_off h2 e0

# Loss in both directions at once.
check "netem loss 3% on both ends" \
	sh -c 'ip netns exec h1 tc qdisc replace dev e0 root netem loss 3% &&
		ip netns exec h2 tc qdisc replace dev e0 root netem loss 3%'
verify_pair "loss 3% both ways" --count=40 --max-size=256K --seed=116
netem_off h1 e0
netem_off h2 e0

# The verifier's checks can fail: a byte flipped on purpose is found.
VERBS_EXPECT=fail verbs_pair "a corrupted byte is detected" \
	"^mrc_verify: [0-9]+ messages, [0-9]+ bytes, [1-9][0-9]* corrupted bytes|server found [1-9]" \
	h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_verify --count=20 --max-size=64K --seed=117 --inject-corruption

check "the namespaces go, then rmmod mrc works" mrc_unload_wait 20

done_testing
