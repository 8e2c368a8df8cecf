# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# What every benchmark of tools/bench does the same way: its command line,
# the re-run of itself in one tools/vm/run guest, and its preconditions.
# Sourced by verbs-vs-rxe.sh and planes-tbf.sh; PROG is the script's name
# in its messages (planes-tbf, verbs-vs-rxe).
#
#   bench_parse PROG OPTION=VAR[=WHAT]... -- ARGS...
#                   the options of a benchmark (see below)
#   bench_positive PROG N...
#                   exit 2 unless every N is a positive integer
#   bench_in_vm SCRIPT BUDGET ARGS...
#                   unless --no-vm or already in the guest: SCRIPT ARGS in
#                   a tools/vm/run guest with BUDGET s (+120 for the boot)
#   bench_need PROG TOOL...
#                   exit 1 unless root and every TOOL is installed
#   bench_start PROG
#                   $work, $started, pids and the traps of the run
#   bench_kill_pids
#                   kill what is left of pids
#   bench_dmesg_mark PROG, bench_dmesg_report
#                   the kernel warnings since the mark, in the report
#   bench_reproduce SCRIPT ARGS...
#                   the report's last line: the command line of the run
#   say TEXT..., elapsed
#                   a line of the report; the seconds since bench_start

# bench_parse PROG OPTION=VAR[=WHAT]... -- ARGS...: ARGS as "OPTION VALUE"
# or "OPTION=VALUE" for every OPTION named, the VALUE into the variable
# VAR (WHAT is what a missing value is said to be needed, default "a
# value"); --no-vm sets vm=0, -h/--help prints usage (the script's own
# function) and exits 0; anything else is an error (exit 2).
bench_parse() {
	local prog=$1 spec opt
	local -A var=() need=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		spec=$1
		opt=${spec%%=*}
		spec=${spec#*=}
		var[$opt]=${spec%%=*}
		need[$opt]="a value"
		[ "$spec" = "${var[$opt]}" ] || need[$opt]=${spec#*=}
		shift
	done
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		--no-vm) vm=0; shift; continue ;;
		-h | --help) usage; exit 0 ;;
		esac
		opt=${1%%=*}
		[ -n "${var[$opt]+set}" ] || {
			echo "$prog: unknown option '$1'" >&2
			usage >&2
			exit 2
		}
		if [ "$opt" = "$1" ]; then
			printf -v "${var[$opt]}" '%s' "${2:?$1 needs ${need[$opt]}}"
			shift 2
		else
			printf -v "${var[$opt]}" '%s' "${1#*=}"
			shift
		fi
	done
}

# bench_positive PROG N...
bench_positive() {
	local prog=$1 n
	shift
	for n in "$@"; do
		[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "$prog: not a positive integer: '$n'" >&2; exit 2; }
	done
}

# bench_in_vm SCRIPT BUDGET ARGS...: the host side, one guest for the whole
# run.  MRC_VM=1 is set by tools/vm/guest-init, so the guest copy runs the
# benchmark itself.  The guest's own budget ends the runs in time to print
# the table; the VM limit above it only catches a wedged guest.  Uses vm
# of the script, and vm_smp (the guest's vCPUs) when it sets it.
bench_in_vm() {
	local script=$1 budget=$2 repo
	shift 2
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	if [ "$vm" = 1 ] && [ "${MRC_VM:-}" != 1 ]; then
		cd "$repo" || exit 1
		exec "$repo/tools/vm/run" --timeout $((budget + 120)) ${vm_smp:+--smp "$vm_smp"} \
			-- "$repo/tools/bench/$script" "$@"
	fi
}

# bench_need PROG TOOL...
bench_need() {
	local prog=$1 tool
	shift
	if [ "$(id -u)" -ne 0 ]; then
		echo "$prog: needs root (or drop --no-vm to run in the VM)" >&2
		exit 1
	fi
	for tool in "$@"; do
		command -v "$tool" >/dev/null || { echo "$prog: $tool not found (tools/deps.sh)" >&2; exit 1; }
	done
}

# bench_start PROG: the run's scratch directory $work, its clock
# ($started, for elapsed), pids (background processes still running, ours
# only) and the traps: the script's cleanup function at exit, a message
# and exit 130 on INT/TERM.
bench_start() {
	# shellcheck disable=SC2034 # $work is the sourcing script's
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
	started=$SECONDS
	pids=()
	trap cleanup EXIT
	# shellcheck disable=SC2064 # PROG is fixed now
	trap "echo '$1: interrupted'; exit 130" INT TERM
}

# bench_kill_pids: for cleanup.
bench_kill_pids() {
	local p
	for p in "${pids[@]}"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null
	done
	return 0
}

say() { printf '%s\n' "$*"; }
elapsed() { echo "$((SECONDS - started)) s"; }

# bench_dmesg_mark PROG: kernel warnings during the run are part of the
# result (as in selftests/mrc/run.sh): remember where the log stood.
bench_dmesg_mark() {
	dmesg_mark="$1: begin $$-$RANDOM"
	echo "$dmesg_mark" >/dev/kmsg 2>/dev/null
}

# bench_dmesg_report: the warnings logged after bench_dmesg_mark.
bench_dmesg_report() {
	local oops
	oops=$(dmesg 2>/dev/null | awk -v m="$dmesg_mark" 'index($0, m) { f = 1; next } f' |
		grep -E '(BUG:|Oops|WARNING:|general protection fault|Kernel panic|UBSAN:|refcount_t:|list_(add|del) corruption|INFO: task .* blocked|rcu: INFO)')
	if [ -n "$oops" ]; then
		say "KERNEL WARNINGS during the run (first lines):"
		printf '%s\n' "$oops" | head -n 20 | sed 's/^/    /'
	else
		say "no kernel warning in dmesg during the run"
	fi
}

# bench_reproduce SCRIPT ARGS...: SCRIPT ARGS, and MRC_KO when it is not
# the tree's own module (that is part of what was measured).
bench_reproduce() {
	local script=$1 args='' envs=''
	shift
	[ $# -eq 0 ] || args=$(printf ' %q' "$@")
	[ "$MRC_KO" = "$repo/net/mrc/mrc.ko" ] || envs="MRC_KO=$(printf '%q' "$MRC_KO") "
	say "reproduce: cd $(printf '%q' "$repo") && ${envs}tools/bench/$script$args"
}
