#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the MRC selftests: every selftests/mrc/test_*.sh in name order, or the
# ones named on the command line.  Each script runs with a timeout, from a
# clean state (no mrc/rxe links, modules unloaded, test namespaces gone) and
# is followed by a dmesg check for kernel oopses and warnings.  The last line
# is "selftests: N passed, N failed[, N skipped]".
#
#   selftests/mrc/run.sh [test_foo.sh...]
#   MRC_TEST_TIMEOUT=S   default per-script timeout (else "timeout=" of the
#                        kselftest file "settings", else 300); a script
#                        can ask for its own with a line
#                        "# selftest-timeout: S"
# A script that exits 4 (kselftest's KSFT_SKIP: a prerequisite is missing,
# e.g. no module, a tool not installed, not root) counts as skipped.
# Works in the VM (tools/vm/run -- selftests/mrc/run.sh) and as root on a
# real machine.  See Documentation/testing.rst.
set -u

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KSFT_SKIP=4
settings_timeout=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$dir/settings" 2>/dev/null | head -n1)
default_timeout=${MRC_TEST_TIMEOUT:-${settings_timeout:-300}}
# MRC_TEST_TIMEOUT_SCALE=N multiplies every timeout (the sanitizer lane's
# kernel is slower than the one the timeouts were set for).
timeout_scale=${MRC_TEST_TIMEOUT_SCALE:-1}
[[ $timeout_scale =~ ^[1-9][0-9]*$ ]] || timeout_scale=1

pass=0
fail=0
skipped=0

summary() {
	if [ "$skipped" -gt 0 ]; then
		echo "selftests: $pass passed, $fail failed, $skipped skipped"
	else
		echo "selftests: $pass passed, $fail failed"
	fi
}

# A failure found by the runner rather than by a script.
runner_fail() {
	echo "not ok - $1"
	fail=$((fail + 1))
}

tests=()
if [ $# -gt 0 ]; then
	for t in "$@"; do
		t=$dir/$(basename "$t")
		if [ ! -f "$t" ]; then
			runner_fail "$(basename "$t"): no such test"
			continue
		fi
		tests+=("$t")
	done
else
	while IFS= read -r t; do
		tests+=("$t")
	done < <(LC_ALL=C find "$dir" -maxdepth 1 -name 'test_*.sh' | LC_ALL=C sort)
fi

[ ${#tests[@]} -gt 0 ] || runner_fail "run.sh: no test to run"

# Without root no script can run: every one is skipped, as each would
# skip itself (lib.sh).
if [ "$(id -u)" -ne 0 ]; then
	echo "# selftests must run as root (in the VM: tools/vm/run -- $0): all skipped"
	skipped=${#tests[@]}
	summary
	[ "$fail" -eq 0 ] && exit $KSFT_SKIP
	exit 1
fi

state=$(mktemp -d "${TMPDIR:-/tmp}/mrc-selftests.XXXXXX") || exit 1
export MRC_STATE_DIR=$state
cur_pid=
on_exit() {
	# Stop a running script and whatever it started (its process group).
	[ -n "$cur_pid" ] && kill -- -"$cur_pid" 2>/dev/null
	rm -rf "$state"
}
trap on_exit EXIT
trap 'echo "# interrupted"; exit 130' INT TERM

# rdma_rxe conflicts with mrc; unload it between tests only if this run
# (not the machine's owner) loaded it.
rxe_was_loaded=0
[ -d /sys/module/rdma_rxe ] && rxe_was_loaded=1

# RDMA devices that existed before the run belong to the machine's owner.
initial_devs=" $(find /sys/class/infiniband -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null) "

# Bring the machine back to a clean state: delete the RDMA links the tests
# created (rmmod must not be the only way they disappear), unload the
# modules, delete the test namespaces.
clean_state() {
	local d ns
	for d in /sys/class/infiniband/*; do
		[ -e "$d" ] || continue
		d=$(basename "$d")
		[[ $initial_devs == *" $d "* ]] && continue
		rdma link del "$d" 2>/dev/null
	done
	if [ -d /sys/module/mrc ] && ! rmmod mrc 2>/dev/null; then
		echo "# clean state: cannot rmmod mrc"
	fi
	if [ "$rxe_was_loaded" = 0 ] && [ -d /sys/module/rdma_rxe ]; then
		rmmod rdma_rxe 2>/dev/null || echo "# clean state: cannot rmmod rdma_rxe"
	fi
	if [ -f "$state/netns" ]; then
		while read -r ns; do
			ip netns del "$ns" 2>/dev/null
		done <"$state/netns"
		rm -f "$state/netns"
	fi
	# In the throw-away VM every namespace and veth is a test's.
	if [ "${MRC_VM:-0}" = 1 ]; then
		ip -all netns delete 2>/dev/null
		ip -o link show type veth 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' |
			while read -r d; do ip link del "$d" 2>/dev/null; done
	fi
	return 0
}

# Kernel messages that mean a bug, whatever the test thought of itself.
# (Not "unregister_netdevice: waiting": on the sanitizer kernel a
# namespace's netdevs take more than its 10 s to be freed after test_62,
# yet rmmod works after it; a leak shows as a failed rmmod.)
oops_re='(BUG:|Oops|WARNING:|general protection fault|Kernel panic|UBSAN:|KASAN:|kernel BUG|refcount_t:|list_(add|del) corruption|INFO: task .* blocked|rcu: INFO|stack-protector|unreferenced object)'

# kmemleak (the sanitizer kernel, tools/vm/mkdebugkernel): scanned once
# after the last test and the module's unload (MRC_KMEMLEAK_SCAN=end, the
# default: a scan takes about a minute under TCG) or after every test
# (MRC_KMEMLEAK_SCAN=each, to tell which test leaked).  An unreferenced
# object allocated by mrc or the RDMA core (which allocates the verbs
# objects mrc fills in) is a leak of ours; others are shown but not counted
# (the boot's own are cleared first).
kmemleak_scan=${MRC_KMEMLEAK_SCAN:-end}
kmemleak=/sys/kernel/debug/kmemleak
if [ ! -e "$kmemleak" ] && [ -d /sys/kernel/debug ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
[ -w "$kmemleak" ] && echo clear >"$kmemleak"
leak_re='\[mrc\]|ib_uverbs|ib_core|rdma_|\<mrc_'

# kmemleak_check NAME: fail NAME if a scan finds a leak of ours.
kmemleak_check() {
	local leaks
	[ -w "$kmemleak" ] || return 0
	echo scan >"$kmemleak"
	leaks=$(cat "$kmemleak")
	echo clear >"$kmemleak"
	[ -n "$leaks" ] || return 0
	if grep -qE "$leak_re" <<<"$leaks"; then
		runner_fail "$1: kmemleak: unreferenced objects of mrc or the RDMA core"
	else
		echo "# $1: kmemleak: unreferenced objects, none of mrc or the RDMA core:"
	fi
	printf '%s\n' "$leaks" | head -n 30 | sed 's/^/#   /'
}

# The memory left after a test (before the next one's clean state): a
# leak, or files piling up in the guest's tmpfs, shows as a trend.
mem_state() {
	awk '/^MemAvailable:/ { a = $2 } /^Shmem:/ { sh = $2 }
		/^SUnreclaim:/ { su = $2 }
		END { printf "memory: %d MiB available, %d MiB shmem, %d MiB unreclaimable slab",
			a / 1024, sh / 1024, su / 1024 }' /proc/meminfo
}

timeout_of() {
	local t
	t=$(sed -n '1,20s/^# *selftest-timeout: *\([0-9][0-9]*\).*/\1/p' "$1" | head -n1)
	echo $(( ${t:-$default_timeout} * timeout_scale ))
}

# In the VM, the harness kills everything after MRC_VM_TIMEOUT seconds
# (counted from QEMU's start; the guest's uptime is close to that).  Stop
# starting tests a little before, so the summary line is still printed and
# the tests that did not run count as failures instead of vanishing.
deadline=
if [[ ${MRC_VM_TIMEOUT:-} =~ ^[0-9]+$ ]]; then
	read -r up _ </proc/uptime
	deadline=$((SECONDS + MRC_VM_TIMEOUT - ${up%.*} - 90))
fi

# The tasks blocked in the kernel (state D) with their kernel stacks:
# what a test that cannot be killed is waiting for.
blocked_tasks() {
	local p st comm
	for p in /proc/[0-9]*; do
		read -r st < <(awk '/^State:/ { print $2 }' "$p/status" 2>/dev/null)
		[ "${st:-}" = D ] || continue
		read -r comm <"$p/comm" 2>/dev/null
		echo "# blocked: pid ${p#/proc/} ($comm):"
		head -n 12 "$p/stack" 2>/dev/null | sed 's/^/#     /'
	done
}

# The watchdog: a test blocked in the kernel cannot be killed, and then
# neither it nor this runner ever ends, and the harness kills the VM with
# no summary line, hiding even which test hung.  So a process beside the
# runner prints, shortly before the harness's limit, the blocked tasks and
# a summary of what finished (kept in $state/progress after each test)
# counting the stuck test as failed.  The runner's own summary, when it
# gets there, comes later and is the one read.
watchdog_pid=
if [ -n "$deadline" ]; then
	(
		sleep $((deadline - SECONDS + 45))
		# The runner removes the file when it has its own summary.
		[ -f "$state/progress" ] || exit 0
		read -r p f s name <"$state/progress"
		echo "not ok - ${name:-the first test}: still running when the VM's time (--timeout $MRC_VM_TIMEOUT) ran out"
		blocked_tasks
		echo "selftests: ${p:-0} passed, $((${f:-0} + 1)) failed, ${s:-0} skipped"
	) 2>/dev/null &
	watchdog_pid=$!
	disown "$watchdog_pid"
fi

echo "TAP version 13"
stuck=0
for t in "${tests[@]}"; do
	name=$(basename "$t")
	limit=$(timeout_of "$t")
	if [ -n "$deadline" ]; then
		left=$((deadline - SECONDS))
		if [ "$left" -lt 20 ]; then
			runner_fail "$name: not run, the VM's time (--timeout $MRC_VM_TIMEOUT) is spent"
			continue
		fi
		[ "$limit" -gt "$left" ] && limit=$left
	fi
	log=$state/$name.log
	clean_state
	mark="mrc-selftests: begin $name $$-$RANDOM"
	echo "$mark" >/dev/kmsg 2>/dev/null
	echo "# selftests: mrc: $name (timeout $limit s)"
	start=$SECONDS
	# timeout puts itself and the script into a new process group, which
	# lets us kill leftovers of the script afterwards.
	timeout -k 10 "$limit" bash "$t" </dev/null >"$log" 2>&1 &
	cur_pid=$!
	echo "$pass $fail $skipped $name" >"$state/progress"
	tail -n +1 -s 0.2 --pid="$cur_pid" -f "$log" &
	tail_pid=$!
	# timeout(1) kills the script at its limit, and 10 s later with
	# SIGKILL; a script still there 60 s after that is blocked in the
	# kernel, and nothing after it can run (rmmod would block too).
	stuck=0
	while kill -0 "$cur_pid" 2>/dev/null; do
		if [ $((SECONDS - start)) -gt $((limit + 70)) ]; then
			stuck=1
			break
		fi
		sleep 1
	done
	if [ "$stuck" = 1 ]; then
		kill "$tail_pid" 2>/dev/null
		runner_fail "$name: cannot be killed $((SECONDS - start - limit)) s after its timeout: blocked in the kernel"
		blocked_tasks
		dmesg 2>/dev/null | awk -v m="$mark" 'index($0, m) { found = 1; next } found' |
			grep -E "$oops_re" | head -n 20 | sed 's/^/#   /'
		cur_pid=
		echo "# the remaining tests are not run"
		break
	fi
	wait "$tail_pid"
	wait "$cur_pid"
	rc=$?
	kill -- -"$cur_pid" 2>/dev/null
	cur_pid=
	secs=$((SECONDS - start))

	p=$(grep -cE '^ok [0-9]+' "$log")
	s=$(grep -cE '^ok [0-9]+ .*# [Ss][Kk][Ii][Pp]' "$log")
	f=$(grep -cE '^not ok [0-9]+' "$log")
	p=$((p - s))
	pass=$((pass + p))
	fail=$((fail + f))
	skipped=$((skipped + s))
	if [ $rc -eq $KSFT_SKIP ] && [ "$f" -eq 0 ]; then
		# The whole script is skipped: its reason is in its plan line.
		skipped=$((skipped + 1))
		s=$((s + 1))
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		runner_fail "$name: timed out after $limit s"
	elif [ $((p + s + f)) -eq 0 ]; then
		runner_fail "$name: no TAP output (exit status $rc)"
	elif ! grep -qE '^1\.\.[0-9]+' "$log"; then
		runner_fail "$name: died before done_testing (exit status $rc)"
	elif [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		runner_fail "$name: exit status $rc without a failed check"
	fi

	oops=$(dmesg 2>/dev/null | awk -v m="$mark" 'index($0, m) { found = 1; next } found' |
		grep -E "$oops_re")
	if [ -n "$oops" ]; then
		runner_fail "$name: kernel warnings in dmesg"
		printf '%s\n' "$oops" | head -n 20 | sed 's/^/#   /'
	fi
	[ "$kmemleak_scan" = each ] && kmemleak_check "$name"
	echo "# $name: $p passed, $f failed, $s skipped, exit $rc, $secs s, $(mem_state)"
	echo "$pass $fail $skipped" >"$state/progress"
done
[ "$stuck" = 1 ] || clean_state
# Objects younger than kmemleak's minimum age (5 s) are not reported yet.
if [ -w "$kmemleak" ] && [ "$stuck" = 0 ]; then
	sleep 6
	kmemleak_check "after the last test"
fi
if [ -n "$watchdog_pid" ]; then
	rm -f "$state/progress"
	pkill -P "$watchdog_pid" 2>/dev/null
	kill "$watchdog_pid" 2>/dev/null
fi
summary
[ "$fail" -eq 0 ]
