#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 600
#
# The verbs interface under a seeded random sequence of calls:
# mrc_verbsfuzz opens $H1_DEV and $H2_DEV of mrc_two_hosts from h1 (RDMA
# device names are global in shared netns mode) and runs MRC_VERBSFUZZ_OPS
# (default 20000, at most 45 s) verbs calls: PDs, MRs, CQs and RC QPs
# with edge sizes and flags, random state changes and connected pairs,
# posts with random opcodes, keys and ranges, raw WQEs in the send ring,
# SRQs (random sizes, resizes, limits, receives with random SGEs, QPs on
# them, destroys with QPs attached), destroys with work outstanding.  It must finish (no call hangs), print
# "0 duplicate, 0 unknown, 0 missing" completions and exit 0; then a clean
# mrc_verify between the two shows the devices still work, the instances
# delete and the module unloads.  run.sh reads dmesg for warnings.
#   MRC_VERBSFUZZ_OPS, MRC_VERBSFUZZ_SEED (default 2): deterministic calls.
#   Seed 2, not 1: since UD pairs joined the mix, seed 1 connects 4 QPs
#   and completes 26 posts, seed 2 connects 12 and completes 192
#   (testing.rst).
. "$(dirname "$0")/lib.sh"

ops=${MRC_VERBSFUZZ_OPS:-20000}
seed=${MRC_VERBSFUZZ_SEED:-2}
secs=${MRC_VERBSFUZZ_TIME:-45}
FUZZ=$VERBS_BIN/mrc_verbsfuzz
SUMMARY_RE='^mrc_verbsfuzz: [1-9][0-9]* ops, [0-9]+ errnos, [0-9]+ completions, 0 duplicate, 0 unknown, 0 missing$'

require_cmd rdma ibv_devinfo "$VERBS_BIN/mrc_verify" "$FUZZ"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing

start=$SECONDS
check_output "$ops random verbs calls (seed $seed): every WR completes once, none hangs" \
	"$SUMMARY_RE" ns_exec h1 timeout -k 5 $((secs + 90)) \
	"$FUZZ" -d "$H1_DEV" -d "$H2_DEV" --ops "$ops" --seed "$seed" --time "$secs"
diag "$(printf '%s\n' "$_mrc_out" | tail -n 30)"
diag "fuzzer: $((SECONDS - start)) s"

verify_pair "after the fuzzer: a clean transfer" --count=40 --max-size=256K --seed=167

check "h1's instance is deleted" ns_exec h1 rdma link del "$H1_DEV"
check "h2's instance is deleted" ns_exec h2 rdma link del "$H2_DEV"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
