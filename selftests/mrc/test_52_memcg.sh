#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel memory of a process's verbs objects is charged to its memory
# cgroup (cgroup v2): build/bin/mrc_memcg_check runs inside a cgroup of
# this test's own and
#   - under a generous memory.max, 8 CQs of 32767 entries raise the
#     cgroup's memory.current by at least 90% of their rings (2 MiB each);
#   - under memory.max=24M, creating 64 such CQs (128 MiB of rings) fails
#     with ENOMEM before the 64th, and so does creating 64 QPs of 4096 WRs
#     of 16 SGEs; the program then frees them and creates a CQ again;
#   - the cgroup's OOM killer never ran, no oops or warning (run.sh reads
#     dmesg), and the device still works afterwards.
# Skipped (TAP SKIP) when the guest has no cgroup v2 with the memory
# controller.
. "$(dirname "$0")/lib.sh"

CHECK=$REPO/build/bin/mrc_memcg_check
CG_ROOT=/sys/fs/cgroup
cg=

cg_cleanup() {
	[ -n "$cg" ] && [ -d "$cg" ] && rmdir "$cg" 2>/dev/null
}

# in_cgroup CMD...: run CMD as a member of $cg (a child shell joins it,
# then becomes CMD).
in_cgroup() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}

# cgroup v2 with the memory controller, made available to our child group.
memcg_ready() {
	if ! grep -qw cgroup2 /proc/mounts; then
		mkdir -p "$CG_ROOT" && mount -t cgroup2 cgroup2 "$CG_ROOT" 2>/dev/null
	fi
	[ -r "$CG_ROOT/cgroup.controllers" ] || return 1
	grep -qw memory "$CG_ROOT/cgroup.controllers" || return 1
	grep -qw memory "$CG_ROOT/cgroup.subtree_control" ||
		echo +memory >"$CG_ROOT/cgroup.subtree_control" 2>/dev/null
	grep -qw memory "$CG_ROOT/cgroup.subtree_control"
}

if ! memcg_ready; then
	skip "memory cgroup charging of verbs objects" \
		"no cgroup v2 memory controller in $CG_ROOT"
	done_testing
fi
check "mrc_memcg_check is built" test -x "$CHECK" || done_testing
require_cmd rdma "$CHECK"
mrc_load || done_testing
veth_pair - m0a 10.0.6.1/24 - m0b 10.0.6.2/24
check "rdma link add mrc0 type mrc netdev m0a" \
	rdma link add mrc0 type mrc netdev m0a || done_testing

cg=$CG_ROOT/mrc_test_52.$$
trap 'cg_cleanup; _mrc_cleanup 2>/dev/null' EXIT
check "a memory cgroup of our own ($cg)" mkdir "$cg" || done_testing

check "memory.max=256M" sh -c "echo 256M > $cg/memory.max"
check_output "under the limit: memory.current grows by the CQ rings" \
	'^mrc_memcg_check: grow: 8 CQs of 32767: rings [0-9]+ bytes, memory.current \+[0-9]+$' \
	in_cgroup "$CHECK" -d mrc0 grow --cqe 32767 --count 8

check "memory.max=24M" sh -c "echo 24M > $cg/memory.max"
check_output "over the limit: a CQ create fails with ENOMEM" \
	'^mrc_memcg_check: limit: created [0-9]+ of 64 CQs, then ENOMEM$' \
	in_cgroup "$CHECK" -d mrc0 limit --cqe 32767 --count 64
check_output "over the limit: a QP create fails with ENOMEM" \
	'^mrc_memcg_check: limit: created [0-9]+ of 64 QPs, then ENOMEM$' \
	in_cgroup "$CHECK" -d mrc0 limit --cqe 32767 --count 64 --qp
check_output "... the cgroup's OOM killer never ran" '^oom_kill 0$' \
	grep '^oom_kill ' "$cg/memory.events"
check "the cgroup is empty again" test -z "$(cat "$cg/cgroup.procs")"
check "memory.max=max" sh -c "echo max > $cg/memory.max"
check "after the refusals the device still creates CQs" \
	in_cgroup "$CHECK" -d mrc0 grow --cqe 32767 --count 1
check "rmdir the cgroup" rmdir "$cg"

check "rdma link del mrc0" rdma link del mrc0
check "rmmod mrc: nothing left behind" mrc_unload

done_testing
