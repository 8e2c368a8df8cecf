#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every test suite and print one summed "N passed, N failed" line.
# Each suite is a command whose output ends with its own such line.
# MRC_SKIP_VM=1 skips the VM selftests and the sanitizer lane (e.g. on a
# machine without QEMU).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

logdir=${MRC_LOGDIR:-build/logs}
mkdir -p "$logdir"

suites=(
	"spec:tools/netlink/check-spec.sh"
	"layering:tools/check-layering.sh"
	"style:tools/testing/run-style.sh"
	"format:tools/check-format.sh"
	"unit:tools/testing/run-unit.sh"
	"fuzz:tools/testing/run-fuzz.sh"
)
if [ "${MRC_SKIP_VM:-0}" != 1 ]; then
	# 4300 s: about 2700 s on an idle machine like CI's, 2900 s beside other
	# guests; CI's whole run stays under 90 minutes even if it is all used.
	suites+=("selftests:tools/vm/run --timeout 4300 -- selftests/mrc/run.sh")
	# The same selftests' lifetime and data-path part on the sanitizer
	# kernel (built once per machine, cached).
	suites+=("sanitizer:tools/vm/sanitizer-lane")
fi

# The sanitizer kernel takes tens of minutes to build on a new machine.
# It builds at idle priority (SCHED_IDLE) while the other suites run, in
# the CPU time they leave (the VM's guest waits a lot), and is raised to
# normal priority when its own suite starts, which then waits for it.
kbuild=
if [ "${MRC_SKIP_VM:-0}" != 1 ]; then
	setsid chrt -i 0 tools/vm/mkdebugkernel >"$logdir/debug-kernel.log" 2>&1 </dev/null &
	kbuild=$!
fi
kbuild_boost() {
	local p
	[ -n "$kbuild" ] || return 0
	for p in $(pgrep -s "$kbuild"); do
		chrt -o -p 0 "$p" 2>/dev/null
	done
}

# The sanitizer lane alongside the selftests.  Both are QEMU guests, and
# the selftests' guest keeps only about one of this machine's two cores
# busy on average (one shell runs the tests; much of the rest is waiting
# for timers), so the lane's one vCPU, started when the selftests start,
# mostly runs on the other: together they take far less than their sum.
# The lane runs in its own session (so its guest can be killed as one
# group), hence its own scheduler autogroup: the two share the CPU as
# equals when both want it, and the lane, done first, leaves the
# selftests both cores.  On a new machine the sanitizer kernel is still
# building (at idle priority, in the CPU the selftests leave) when the
# selftests start: the lane's session then waits for that build and
# starts the moment it ends, still beside the selftests (in CI the build
# used to end a third of the way into them, and the lane then ran after
# them: 20 minutes more).
lane_pid=
lane_start() {
	local cmd=$1
	[ -n "$kbuild" ] || return 1
	rm -f "$logdir/sanitizer.start" "$logdir/sanitizer.end"
	# shellcheck disable=SC2016 # expanded by the inner shell
	setsid bash -c 'while kill -0 "$2" 2>/dev/null; do sleep 5; done
		date +%s >"$3"; bash -c "$1"; rc=$?; date +%s >"$4"; exit $rc' \
		lane "$cmd" "$kbuild" "$logdir/sanitizer.start" \
		"$logdir/sanitizer.end" >"$logdir/sanitizer.log" 2>&1 </dev/null &
	lane_pid=$!
	# Interrupted, the lane's guest goes too.
	trap '[ -z "$lane_pid" ] || kill -- -"$lane_pid" 2>/dev/null' EXIT
}
lane_cmd=
for s in "${suites[@]}"; do
	[ "${s%%:*}" = sanitizer ] && lane_cmd=${s#*:}
done

# What failed, gathered for a digest printed just before the last line:
# CI shows the end of this output, where a failure deep in a suite's log
# would otherwise not be seen.
digest=()
# NAME: its "not ok" lines; else, for a guest that did not finish, where
# it was (tools/vm/log-digest); else its log's end.
digest_add() {
	local lines
	lines=$(grep -E '^not ok' "$logdir/$1.log" | head -n 6)
	[ -n "$lines" ] || lines=$(tools/vm/log-digest "$logdir/$1.log" | head -n 12)
	[ -n "$lines" ] || lines=$(grep -v '^$' "$logdir/$1.log" | tail -n 6)
	digest+=("--- $1 ($logdir/$1.log):")
	while IFS= read -r l; do
		digest+=("  ${l:0:200}")
	done <<<"$lines"
}

total_pass=0
total_fail=0
for s in "${suites[@]}"; do
	name=${s%%:*}
	cmd=${s#*:}
	[ "$name" = selftests ] && [ -n "$lane_cmd" ] && lane_start "$lane_cmd"
	if [ "$name" = sanitizer ] && [ -n "$lane_pid" ]; then
		echo "=== suite $name: $cmd (alongside the selftests)"
		kbuild_boost	# the selftests are done: no more idle priority
		wait "$lane_pid"
		rc=$?
		lane_pid=
		wait "$kbuild" 2>/dev/null
		kbuild=
		cat "$logdir/$name.log"
		# Its own time: from its start to its end, not to now.
		start=$(date +%s)
		{ read -r lane_t0 <"$logdir/sanitizer.start" &&
			read -r lane_end <"$logdir/sanitizer.end"; } 2>/dev/null &&
			start=$((start - (lane_end - lane_t0)))
	else
		[ "$name" = sanitizer ] && kbuild_boost
		echo "=== suite $name: $cmd"
		start=$(date +%s)
		bash -c "$cmd" 2>&1 | tee "$logdir/$name.log"
		rc=${PIPESTATUS[0]}
	fi
	line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$logdir/$name.log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "=== suite $name: no summary line (exit $rc): counted as 1 failure"
		total_fail=$((total_fail + 1))
		digest_add "$name"
		continue
	fi
	p=$(sed -E 's/^([A-Za-z]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
	f=$(sed -E 's/^([A-Za-z]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/' <<<"$line")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "=== suite $name: exit $rc with no failed test: counted as 1 failure"
		f=1
	fi
	echo "=== suite $name: $p passed, $f failed ($(( $(date +%s) - start )) s)"
	[ "$f" -eq 0 ] || digest_add "$name"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
done

if [ ${#digest[@]} -gt 0 ]; then
	echo "=== what failed:"
	printf '%s\n' "${digest[@]:0:16}"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
