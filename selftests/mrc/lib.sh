# SPDX-License-Identifier: GPL-2.0-only
#
# Shared helpers of the MRC selftests; every test_*.sh sources this file.
# Output is TAP: one "ok N - DESC" / "not ok N - DESC" line per check,
# diagnostics as "# ..." lines, the plan "1..N" printed by done_testing.
# The API is described in Documentation/testing.rst.  This file owns the
# EXIT trap of the test script: it deletes what the helpers created.
#
# Written to work with or without "set -u" in the test script.

# The C locale for every command of the tests: their output is ASCII, and
# grep -E in a UTF-8 locale spends most of its start on multibyte regex
# set-up (natively 10 ms against 4 ms for LC_ALL=C; half a second per
# call in the TCG guest, and the tests grep thousands of times).
export LC_ALL=C

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
MRC_KO=${MRC_KO:-$REPO/net/mrc/mrc.ko}
if [ -z "${MRCCTL:-}" ]; then
	if [ -x "$REPO/build/bin/mrcctl" ]; then
		MRCCTL=$REPO/build/bin/mrcctl
	else
		# A missing mrcctl then fails the checks that use it, loudly.
		MRCCTL=$(command -v mrcctl || echo "$REPO/build/bin/mrcctl")
	fi
fi
export REPO MRC_KO MRCCTL

_mrc_n=0		# TAP test number
_mrc_pass=0
_mrc_fail=0
_mrc_skip=0
_mrc_netns=()		# namespaces created by ns_create
_mrc_links=()		# veth ends created in the initial namespace
_mrc_test=$(basename "$0")

echo "TAP version 13"
echo "# $_mrc_test"

# kselftest's exit status of a script whose prerequisite is missing (no
# module, a tool not installed, not root): run.sh counts it as skipped.
KSFT_SKIP=4

# mrc_skip REASON: end the script here as skipped (exit $KSFT_SKIP), with
# the TAP plan of what ran and REASON.
mrc_skip() {
	echo "1..$_mrc_n # SKIP $*"
	echo "# $_mrc_test: skipped: $*"
	_mrc_cleanup 2>/dev/null
	exit $KSFT_SKIP
}

# require_cmd CMD...: skip the script unless every CMD (a name on $PATH
# or a path, e.g. "$MRCCTL") is an executable.
require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || mrc_skip "$c not found (not installed or not built)"
	done
}

# require_module: skip the script unless mrc and the modules it depends on
# can be loaded: the in-tree $MRC_KO or an installed mrc.  Looked up in
# modules.dep and modules.builtin (not "modinfo NAME", which costs seconds
# in the VM), once per script.
_mrc_module_found=0
_mrc_have_module() {
	local name=${1//-/_} dir=/lib/modules/$(uname -r)
	[ -d "/sys/module/$name" ] && return 0
	grep -Eq "(^|/)${name//_/[_-]}\.ko(\.[a-z]+)?:" "$dir/modules.dep" 2>/dev/null && return 0
	grep -Eq "(^|/)${name//_/[_-]}\.ko$" "$dir/modules.builtin" 2>/dev/null
}
require_module() {
	local dep deps
	[ "$_mrc_module_found" = 1 ] && return 0
	require_cmd modprobe modinfo insmod rmmod
	if [ -f "$MRC_KO" ]; then
		deps=$(modinfo -F depends "$MRC_KO" 2>/dev/null)
	else
		_mrc_have_module mrc || mrc_skip "no $MRC_KO (make module) and no installed mrc module"
		deps=$(modinfo -F depends mrc 2>/dev/null)
	fi
	for dep in ${deps//,/ }; do
		_mrc_have_module "$dep" || mrc_skip "module $dep (needed by mrc) not found"
	done
	_mrc_module_found=1
}

# Every script creates namespaces, links or modules.
[ "$(id -u)" -eq 0 ] || mrc_skip "not root"
require_cmd ip

# diag MSG...: a TAP diagnostic line per line of MSG.
diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# Where a script's time goes: the seconds from the previous check (or the
# script's start) to each check, the slowest few printed by done_testing,
# so that a test which got slow shows what made it so.
_mrc_t_last=$SECONDS
_mrc_times=()
_mrc_time() {
	_mrc_times+=("$((SECONDS - _mrc_t_last)) $_mrc_n $1")
	_mrc_t_last=$SECONDS
}

ok() {
	_mrc_n=$((_mrc_n + 1))
	_mrc_pass=$((_mrc_pass + 1))
	echo "ok $_mrc_n - $1"
	_mrc_time "$1"
}

not_ok() {
	_mrc_n=$((_mrc_n + 1))
	_mrc_fail=$((_mrc_fail + 1))
	echo "not ok $_mrc_n - $1"
	_mrc_time "$1"
}

# skip DESC REASON: counted apart from passes.
skip() {
	_mrc_n=$((_mrc_n + 1))
	_mrc_skip=$((_mrc_skip + 1))
	echo "ok $_mrc_n - $1 # SKIP ${2:-}"
	_mrc_time "$1"
}

# Run CMD... with stdin from /dev/null, its stdout+stderr in $_mrc_out.
# Shell functions (ns_exec, ...) work as CMD.
_mrc_run() {
	_mrc_out=$("$@" </dev/null 2>&1)
}

# Diagnostics of a failed check: the command line and what it printed
# (at most 60 lines, enough to see an error without drowning the log).
_mrc_explain() {
	local why=$1
	shift
	diag "command: $(printf '%q ' "$@")"
	diag "$why"
	[ -n "$_mrc_out" ] || return 0
	# Long outputs: the start, every failure line, the end.
	if [ "$(printf '%s\n' "$_mrc_out" | wc -l)" -le 60 ]; then
		printf '%s\n' "$_mrc_out" | sed 's/^/#   /'
		return 0
	fi
	{
		printf '%s\n' "$_mrc_out" | head -n 20
		echo "[...; the failures:]"
		printf '%s\n' "$_mrc_out" | sed '1,20d' | grep -E 'not ok|error' | head -n 40
		echo "[...; the end:]"
		printf '%s\n' "$_mrc_out" | tail -n 20
	} | sed 's/^/#   /'
}

# _mrc_check WANT DESC REGEX CMD...: the one body of the checks below.
# Ok iff CMD's exit status is as WANT says (ok: 0, fail: not 0) and its
# combined output matches the extended regular expression REGEX (grep -E,
# per line; the empty REGEX matches any output).
_mrc_check() {
	local want=$1 desc=$2 re=$3 rc status_ok=0
	shift 3
	_mrc_run "$@"
	rc=$?
	if [ "$want" = ok ]; then
		[ $rc -eq 0 ] && status_ok=1
	else
		[ $rc -ne 0 ] && status_ok=1
	fi
	# An empty REGEX (check, check_fail) matches any output: no grep
	# (every exec counts in the TCG guest).
	if [ $status_ok = 1 ] && { [ -z "$re" ] || grep -Eq -- "$re" <<<"$_mrc_out"; }; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc"
	if [ $status_ok = 0 ] && [ $rc -ne 0 ]; then
		_mrc_explain "exit status $rc, expected 0; output:" "$@"
	elif [ $status_ok = 0 ]; then
		_mrc_explain "exit status 0, expected failure; output:" "$@"
	elif [ $rc -eq 0 ]; then
		_mrc_explain "output does not match /$re/:" "$@"
	else
		_mrc_explain "exit status $rc but output does not match /$re/:" "$@"
	fi
	return 1
}

# check DESC CMD...: ok iff CMD exits 0.
check() {
	_mrc_check ok "$1" "" "${@:2}"
}

# check_fail DESC CMD...: ok iff CMD exits non-zero.
check_fail() {
	_mrc_check fail "$1" "" "${@:2}"
}

# check_output DESC REGEX CMD...: ok iff CMD exits 0 and its combined
# output matches the extended regular expression (grep -E, per line).
check_output() {
	_mrc_check ok "$1" "$2" "${@:3}"
}

# check_output_fail DESC REGEX CMD...: ok iff CMD fails and its combined
# output matches REGEX (e.g. the kernel's extack message).
check_output_fail() {
	_mrc_check fail "$1" "$2" "${@:3}"
}

# check_finished DESC RC LOG REGEX CMD...: the check of a command that ran
# in the background and has been waited for: ok iff it exited with status
# RC = 0 and its output, in the file LOG, matches REGEX (grep -E, per line;
# empty: any).  CMD... is how the diagnostics name the command.
check_finished() {
	local desc=$1 rc=$2 log=$3 re=$4
	shift 4
	_mrc_out=$(cat "$log")
	if [ "$rc" -eq 0 ] && { [ -z "$re" ] || grep -Eq -- "$re" <<<"$_mrc_out"; }; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc"
	if [ "$rc" -ne 0 ]; then
		_mrc_explain "exit status $rc; output:" "$@"
	else
		_mrc_explain "output does not match /$re/:" "$@"
	fi
	return 1
}

# mrc_load [PARAM=VALUE...]: load the in-tree mrc.ko (its dependencies via
# modprobe first, since insmod does not resolve them), or "modprobe mrc"
# when there is no in-tree build.  A failure is reported as a failed check;
# a module that is not there at all skips the script (require_module).
mrc_load() {
	local dep
	require_module
	if [ -f "$MRC_KO" ]; then
		for dep in $(modinfo -F depends "$MRC_KO" 2>/dev/null | tr ',' ' '); do
			if ! _mrc_run modprobe "$dep"; then
				not_ok "mrc_load: modprobe $dep (dependency of mrc.ko)"
				_mrc_explain "output:" modprobe "$dep"
				return 1
			fi
		done
		if ! _mrc_run insmod "$MRC_KO" "$@"; then
			not_ok "mrc_load: insmod $MRC_KO"
			_mrc_explain "output:" insmod "$MRC_KO" "$@"
			return 1
		fi
	else
		if ! _mrc_run modprobe mrc "$@"; then
			not_ok "mrc_load: modprobe mrc"
			_mrc_explain "no $MRC_KO; output:" modprobe mrc "$@"
			return 1
		fi
	fi
	return 0
}

# mrc_unload: remove mrc if loaded; returns rmmod's status.
mrc_unload() {
	[ -d /sys/module/mrc ] || return 0
	rmmod mrc
}

# Record a namespace for deletion by this script and by run.sh (which
# cleans up after a script that died before its own cleanup).
_mrc_record_netns() {
	_mrc_netns+=("$1")
	if [ -n "${MRC_STATE_DIR:-}" ]; then
		echo "$1" >>"$MRC_STATE_DIR/netns"
	fi
}

# ns_create NAME: a new network namespace with loopback up.
ns_create() {
	local name=$1
	if ! ip netns add "$name"; then
		diag "ns_create: cannot create netns $name"
		return 1
	fi
	_mrc_record_netns "$name"
	ip -n "$name" link set lo up
}

# ns_exec NAME CMD...: run CMD in namespace NAME ("-": the initial one).
ns_exec() {
	local name=$1
	shift
	if [ "$name" = - ]; then
		"$@"
	elif [ "$1" = ip ]; then
		# One exec instead of two ("ip netns exec" then ip): ip
		# enters the namespace itself.
		shift
		ip -n "$name" "$@"
	else
		ip netns exec "$name" "$@"
	fi
}

# veth_pair NS1 IF1 ADDR1 NS2 IF2 ADDR2: a veth pair with one end in each
# namespace ("-": the initial namespace), addresses (CIDR, IPv4 or IPv6;
# "-" for none) assigned and both ends up.  IPv6 addresses skip DAD so they
# are usable at once.
veth_pair() {
	local ns1=$1 if1=$2 a1=$3 ns2=$4 if2=$5 a2=$6
	local where1=() where2=()
	[ "$ns1" = - ] || where1=(netns "$ns1")
	[ "$ns2" = - ] || where2=(netns "$ns2")
	if ! ip link add "$if1" "${where1[@]}" type veth peer name "$if2" "${where2[@]}"; then
		diag "veth_pair: cannot create $if1 ($ns1) <-> $if2 ($ns2)"
		return 1
	fi
	# Deleting one end deletes both; a namespace's ends go with it.
	[ "$ns1" = - ] && _mrc_links+=("$if1")
	[ "$ns1" != - ] && [ "$ns2" = - ] && _mrc_links+=("$if2")
	_mrc_veth_setup "$ns1" "$if1" "$a1" && _mrc_veth_setup "$ns2" "$if2" "$a2"
}

_mrc_veth_setup() {
	local ns=$1 dev=$2 addr=$3
	local ipc=(ip)
	[ "$ns" = - ] || ipc=(ip -n "$ns")
	if [ "$addr" != - ]; then
		case $addr in
		*:*) "${ipc[@]}" addr add "$addr" dev "$dev" nodad || return 1 ;;
		*) "${ipc[@]}" addr add "$addr" dev "$dev" || return 1 ;;
		esac
	fi
	"${ipc[@]}" link set "$dev" up
}

# Delete what the helpers created and stop background jobs of the script
# (e.g. a forgotten "mrcctl monitor &").  Runs on any exit.
# mrc_two_hosts: the standard two-host topology of the data-path tests.
# Network namespaces h1 and h2 joined by a veth pair (h1: e0 10.0.0.1,
# h2: e0 10.0.0.2), an instance on each end: $H1_DEV (mrc1) in h1 and
# $H2_DEV (mrc2) in h2.  RDMA device names are global even when their
# netdevs are not (the RDMA core's shared netns mode), hence two names.
# Verbs programs then run with "ns_exec h1 PROG -d $H1_DEV -g 1 ..." (GID
# 1 is the IPv4-mapped address).  Returns non-zero (with a diagnostic) on
# failure.
H1_DEV=mrc1
H2_DEV=mrc2
mrc_two_hosts() {
	ns_create h1 && ns_create h2 || return 1
	veth_pair h1 e0 10.0.0.1/24 h2 e0 10.0.0.2/24 || return 1
	ip netns exec h1 rdma link add $H1_DEV type mrc netdev e0 || return 1
	ip netns exec h2 rdma link add $H2_DEV type mrc netdev e0 || return 1
	mrc_wait_gid h1 $H1_DEV 10.0.0.1 && mrc_wait_gid h2 $H2_DEV 10.0.0.2
}

# mrc_wait_gid NS DEV ADDR: until DEV in NS lists ::ffff:ADDR as GID 1.
mrc_wait_gid() {
	local ns=$1 dev=$2 addr=$3
	if ! wait_output "GID\[ *1\]:[[:space:]]+::ffff:${addr//./\.}" \
		ns_exec "$ns" ibv_devinfo -v -d "$dev"; then
		diag "mrc_wait_gid: $ns $dev has no GID 1 for $addr"
		return 1
	fi
}

_mrc_cleanup() {
	local j ns dev
	for j in $(jobs -p 2>/dev/null); do
		kill "$j" 2>/dev/null
	done
	for dev in "${_mrc_links[@]}"; do
		ip link del "$dev" 2>/dev/null
	done
	for ns in "${_mrc_netns[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	_mrc_links=()
	_mrc_netns=()
}
trap '_mrc_cleanup 2>/dev/null' EXIT

# wait_output REGEX CMD...: poll CMD (up to 5 s) until its output matches.
# State that reaches the RDMA core or netlink through work queues (GIDs,
# carrier, teardown) needs a poll, not a single look.
wait_output() {
	local re=$1
	shift
	for _ in $(seq 50); do
		"$@" 2>&1 | grep -Eq -- "$re" && return 0
		sleep 0.1
	done
	"$@"
	return 1
}

# wait_no_output REGEX CMD...: poll until CMD succeeds without matching.
wait_no_output() {
	local re=$1 out
	shift
	for _ in $(seq 50); do
		if out=$("$@" 2>&1) && ! grep -Eq -- "$re" <<<"$out"; then
			return 0
		fi
		sleep 0.1
	done
	printf '%s\n' "$out"
	return 1
}

# done_testing: print the plan and the summary, clean up, exit non-zero if
# a check failed.  A script without a single check is a failure too.
done_testing() {
	echo "1..$_mrc_n"
	echo "# $_mrc_test: $_mrc_pass passed, $_mrc_fail failed, $_mrc_skip skipped"
	if [ ${#_mrc_times[@]} -gt 0 ]; then
		echo "# $_mrc_test: slowest steps (s, check):"
		printf '%s\n' "${_mrc_times[@]}" | sort -k1,1nr | head -n 4 |
			while read -r t n d; do echo "#   $t s to check $n (${d:0:70})"; done
	fi
	_mrc_cleanup 2>/dev/null
	if [ "$_mrc_n" -eq 0 ]; then
		echo "# $_mrc_test: no checks were run"
		exit 1
	fi
	[ "$_mrc_fail" -eq 0 ] || exit 1
	exit 0
}

# ---------------------------------------------------------------------
# Control-plane tests (mrcctl and the "mrc" netlink family): their
# scratch directory, exit statuses, and the lines a background
# "mrcctl monitor" writes to a file.

# mrc_tmpdir: a scratch directory in $tmp, deleted on exit together with
# what the helpers created (this replaces the EXIT trap of lib.sh).
mrc_tmpdir() {
	tmp=$(mktemp -d) || exit 1
	trap '_mrc_cleanup; rm -rf "$tmp"' EXIT
}

# The control-plane tests run in namespace $A (set by the test); the peers
# of its veths sit in $B.  M ARG...: mrcctl in $A (-n enters it without
# the cost of "ip netns exec"); N CMD...: CMD in $A.
M() { "$MRCCTL" -n "$A" "$@"; }
N() { ns_exec "$A" "$@"; }

# mrc_ctl_setup COUNT [NET]: mrc loaded, namespaces $A and $B, and COUNT
# veth pairs pI in $A <-> qI in $B (I = 1..COUNT), without addresses or,
# with NET (e.g. 10.40), NET.I.1/24 <-> NET.I.2/24.  No rdma, mrcctl or
# module skips the test, no namespace ends it; a missing pair is a failed
# check.
mrc_ctl_setup() {
	local count=$1 net=${2:-} i a1=- a2=-
	require_cmd rdma "$MRCCTL"
	mrc_load || done_testing
	ns_create "$A" && ns_create "$B" || { not_ok "namespaces"; done_testing; }
	for i in $(seq "$count"); do
		[ -z "$net" ] || { a1=$net.$i.1/24; a2=$net.$i.2/24; }
		veth_pair "$A" "p$i" "$a1" "$B" "q$i" "$a2" || not_ok "veth pair p$i"
	done
}

# mrc_monitor_test NAME: the start of the tests that watch "mrcctl monitor"
# (test_42/43/44): the namespaces A=NAMEa and B=NAMEb (mrc_ctl_setup), a
# scratch directory $tmp (mrc_tmpdir) and the files of mrc_monitors in it,
# $txt and $json.
mrc_monitor_test() {
	A=${1}a
	B=${1}b
	mrc_tmpdir
	txt=$tmp/monitor.txt
	json=$tmp/monitor.json
}

# mrc_monitors NETDEV: "mrcctl monitor" and "mrcctl -j monitor" in $A in
# the background, writing to the files $txt and $json (their pids in
# mon_txt and mon_json), then the check "monitors are listening"
# (monitors_listening, with throw-away instances on NETDEV).
mrc_monitors() {
	"$MRCCTL" -n "$A" monitor >"$txt" 2>&1 &
	mon_txt=$!
	"$MRCCTL" -n "$A" -j monitor >"$json" 2>&1 &
	mon_json=$!
	if monitors_listening "$A" "$1" "$txt" "$json"; then
		ok "monitors are listening"
	else
		not_ok "monitors are listening"
	fi
}

# unpriv: the command that runs the rest of its line as user nobody,
# without CAP_NET_ADMIN (empty when neither setpriv nor capsh exists).
unpriv=()
if command -v setpriv >/dev/null; then
	unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups
		--inh-caps=-all --bounding-set=-all)
elif command -v capsh >/dev/null; then
	unpriv=(capsh --drop=cap_net_admin --user=nobody --)
fi

# exits STATUS CMD...: ok iff CMD exits with STATUS (e.g. mrcctl's 2 for
# a usage error, 1 for a refusal), its output passed through.
exits() {
	local want=$1 rc
	shift
	"$@"
	rc=$?
	[ "$rc" -eq "$want" ] && return 0
	echo "exit status $rc, expected $want"
	return 1
}

# refused_each RE "DESC|ARGS"...: for each, the check DESC that mrcctl in
# $A (M) with ARGS (split at blanks) exits 1 with a line matching RE: one
# refusal that several requests meet.
refused_each() {
	local re=$1 c
	shift
	for c in "$@"; do
		# shellcheck disable=SC2086 # ARGS: the request's words
		check_output "${c%%|*}" "$re" exits 1 M ${c#*|}
	done
}

# joined CMD...: CMD's output lines joined by "|" (one line to match).
joined() {
	local out rc
	out=$("$@")
	rc=$?
	printf '%s\n' "$out" | paste -sd'|'
	return $rc
}

# wait_line FILE REGEX: wait up to $WAIT_LINE_SECONDS (default 10) for a
# line of FILE matching REGEX; if none comes, print what it looked for
# and the end of FILE.
wait_line() {
	for _ in $(seq $((${WAIT_LINE_SECONDS:-10} * 10))); do
		grep -Eq -- "$2" "$1" && return 0
		sleep 0.1
	done
	echo "no line /$2/ in:"
	tail -n 20 "$1"
	return 1
}

# monitors_listening NS NETDEV TXT JSON: whether the plain "mrcctl
# monitor" writing TXT and the -j one writing JSON, both in NS, listen.
# They do once they print an event, so create and delete a throw-away
# instance (mrcw on NETDEV) until both have seen it, 30 tries at most.
monitors_listening() {
	local ns=$1 netdev=$2 txt=$3 json=$4
	for _ in $(seq 30); do
		ns_exec "$ns" rdma link add mrcw type mrc netdev "$netdev" 2>/dev/null
		ns_exec "$ns" rdma link del mrcw 2>/dev/null
		if grep -q '^dev del dev mrcw' "$txt" && grep -q '"dev_del"' "$json"; then
			return 0
		fi
		sleep 0.3
	done
	return 1
}

# in_order FILE REGEX...: every REGEX matches a line of FILE, each one on
# a later line than the one before; prints what it looked for if not.
in_order() {
	local file=$1 line=0 re n
	shift
	for re in "$@"; do
		n=$(tail -n +$((line + 1)) "$file" | grep -nE -m1 -- "$re" | cut -d: -f1)
		if [ -z "$n" ]; then
			echo "no line /$re/ after line $line of:"
			cat "$file"
			return 1
		fi
		line=$((line + n))
	done
}

# MRC_GENL: the spec-driven generic netlink client (mrc_genl.py), for the
# requests mrcctl never sends (missing, malformed or extra attributes).
# Operations and attributes are named as in
# Documentation/netlink/specs/mrc.yaml; numbers and types come from there.
#   "$MRC_GENL" OP NAME=VALUE...   one request: prints "ok", or "error
#                                 ENAME (strerror): extack" and exits 1
MRC_GENL=$REPO/selftests/mrc/mrc_genl.py

# genl_py NS SCRIPT ARG...: run the Python SCRIPT in NS with mrc_genl's
# Client, Spec and result() at hand; sys.argv[1:] are the ARGs.
#   result(OP, PAIRS): one request as "$MRC_GENL" prints it, then exit
MRC_GENL_PY='
import os, sys
sys.path.insert(0, os.environ["MRC_GENL_DIR"])
from mrc_genl import Client, Spec
import errno

def result(op, pairs):
    err, text, _ = Client().request(op, pairs)
    if err == 0:
        print("ok")
        sys.exit(0)
    print("error %s (%s): %s" % (errno.errorcode.get(err, err), os.strerror(err), text))
    sys.exit(1)
'
# One Python process per test serves every genl_py call (mrc_genl.py
# --serve): started by the first call, it enters NS per request and ends
# with the test.  A Python start that loads the spec takes seconds in the
# TCG guest, and tests make dozens of these requests.  The shell side uses
# builtins only (a fork and exec costs a quarter of a second there).
_mrc_genl_srv=${TMPDIR:-/tmp}/mrc-genl.$$
_mrc_genl_start() {
	local srv=$_mrc_genl_srv i
	rm -rf "$srv"
	mkdir -p "$srv" || return 1
	MRC_GENL_DIR="$REPO/selftests/mrc" python3 "$MRC_GENL" --serve "$srv" $$ \
		</dev/null >/dev/null 2>"$srv/log" &
	for i in $(seq 200); do
		[ -s "$srv/pid" ] && return 0
		sleep 0.1
	done
	echo "genl_py: the mrc_genl.py server did not start: $(cat "$srv/log")" >&2
	return 1
}
genl_py() {
	local ns=$1 script=$2 srv=$_mrc_genl_srv pid rc out err
	shift 2
	if ! { [ -p "$srv/in" ] && read -r pid <"$srv/pid" && kill -0 "$pid"; } 2>/dev/null; then
		_mrc_genl_start || return 1
	fi
	printf '%s\0' "$ns" "$MRC_GENL_PY$script" "$@" >"$srv/in"
	read -r rc <"$srv/out"
	IFS= read -r -d '' out <"$srv/stdout"
	IFS= read -r -d '' err <"$srv/stderr"
	printf '%s' "$out"
	printf '%s' "$err" >&2
	return "${rc:-1}"
}

# ---------------------------------------------------------------------
# Verbs programs (tools/testing/verbs): mrc_verify and mrc_negative run as
# a server in one namespace and a client in another.

VERBS_BIN=${VERBS_BIN:-$REPO/build/bin}

# ns_bg NS CMD...: start CMD in namespace NS ("-": the initial one) in the
# background, its pid in $BG_PID.  Unlike "ns_exec ... &" (a subshell),
# the pid is CMD's own ("ip netns exec" execs it), so a signal reaches it;
# "timeout" passes SIGTERM on to the program it runs.
ns_bg() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then
		"$@" &
	else
		ip netns exec "$ns" "$@" &
	fi
	BG_PID=$!
}

# mrc_verbs_setup PROG...: the start of a two-host verbs test, each step
# a check that ends the test on failure: the PROGs are built and rdma and
# ibv_devinfo installed (else the test is skipped), mrc is loaded,
# mrc_two_hosts.
mrc_verbs_setup() {
	require_cmd rdma ibv_devinfo "$@"
	mrc_load || done_testing
	check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing
}

# tap_pair PROG [OPTION...]: PROG, a TAP program of tools/testing/verbs
# (mrc_qp_compat, mrc_verbs_ext), as server in h1 and client in h2 of
# mrc_two_hosts (verbs_pair, $VERBS_TIMEOUT default 200 s); the client
# must end with "N passed, 0 failed", the server with "N sessions, 0
# errors".  OPTIONs go to the client.
tap_pair() {
	local prog=$1
	shift
	VERBS_TIMEOUT=${VERBS_TIMEOUT:-200} verbs_pair "$prog" \
		"^# $prog: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* sessions, 0 errors)\$" \
		h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 "$prog" "$@"
}

# h1h2_app DESC RE PORT PROG [ARG...]: app_pair of PROG on $H1_DEV in h1
# (the server, 10.0.0.1) and $H2_DEV in h2 (the client) of mrc_two_hosts.
h1h2_app() {
	local desc=$1 re=$2 port=$3
	shift 3
	app_pair "$desc" "$re" h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 "$port" "$@"
}

# h1_stat NAME: h1's instance counter NAME (mrcctl -s dev show of
# $H1_DEV), empty if there is no such counter.
h1_stat() {
	ns_exec h1 "$MRCCTL" -j -s dev show dev "$H1_DEV" 2>/dev/null | python3 -S -c '
import json, sys
try:
    v = json.load(sys.stdin)[0]["stats"][sys.argv[1]]
except Exception:
    sys.exit(0)
print(v)' "$1"
}

# drop_check_pair PROG COUNTER N WHAT: PROG, a TAP program of
# tools/testing/verbs whose receiver drops N messages, with its drop
# counter COUNTER: COUNTER is a counter of h1's instance (mrcctl) and of
# rdma statistic; PROG as server in h1 and client in h2 (verbs_pair,
# 120 s), the client must end with "N passed, 0 failed", the server with
# "N commands, 0 errors"; then "COUNTER counted the N dropped WHAT".
drop_check_pair() {
	local prog=$1 counter=$2 n=$3 what=$4 before after
	check_output "$counter is a counter of the instance (mrcctl -s dev show)" \
		'^[0-9]+$' h1_stat "$counter"
	check_output "... and of rdma statistic" "$counter [0-9]+" \
		ns_exec h1 rdma statistic show link "$H1_DEV/1"
	before=$(h1_stat "$counter")
	VERBS_DIAG_RE="^(ok|not ok|# $prog)" VERBS_TIMEOUT=120 verbs_pair "$prog" \
		"^# $prog: ([1-9][0-9]* passed, 0 failed|server: [1-9][0-9]* commands, 0 errors)\$" \
		h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 "$prog"
	after=$(h1_stat "$counter")
	if [ -n "$before" ] && [ -n "$after" ] && [ $((after - before)) -eq "$n" ]; then
		ok "$counter counted the $n dropped $what"
	else
		not_ok "$counter counted the $n dropped $what"
		diag "$counter before '${before}', after '${after}'"
	fi
}

# mrc_attack_setup PROG...: the hostile-packet tests' topology, each step a
# check that ends the test on failure: the PROGs are built and rdma and
# ibv_devinfo installed (else the test is skipped), mrc is loaded,
# mrc_two_hosts, and an attacker namespace h3 joined to h1 by its own veth
# (h3 e1 10.0.9.3/24 <-> h1 e1 10.0.9.1/24).
mrc_attack_setup() {
	require_cmd rdma ibv_devinfo "$@"
	mrc_load || done_testing
	check "h1 ($H1_DEV), h2 ($H2_DEV) on e0 (mrc_two_hosts)" mrc_two_hosts || done_testing
	check "attacker namespace h3" ns_create h3 || done_testing
	check "h3 e1 10.0.9.3/24 <-> h1 e1 10.0.9.1/24" \
		veth_pair h3 e1 10.0.9.3/24 h1 e1 10.0.9.1/24 || done_testing
}

# The last line both ends of a clean mrc_verify run print.
VERIFY_CLEAN_RE='^mrc_verify: [1-9][0-9]* messages, [0-9]+ bytes, 0 corrupted bytes, 0 failed completions$'

# verbs_pair DESC RE SNS SDEV CNS CDEV SADDR PROG [OPTION...]: run PROG as
# a server on SDEV in namespace SNS (in the background) and as a client on
# CDEV in CNS, connecting to SADDR, both with "-d DEV -g $VERBS_GID"
# (default 1, the IPv4-mapped GID) and under
# "timeout" ($VERBS_TIMEOUT s, default 240, plus a grace for the
# program's own watchdog).  Two checks, "DESC: client" and "DESC: server":
# each end exits 0 and prints a line matching RE.  OPTIONs go to the
# client (mrc_verify's server takes the run's parameters from it).  With
# VERBS_EXPECT=fail, each end must instead exit non-zero and print a line
# matching RE (the checks of the checkers).
verbs_pair() {
	local desc=$1 re=$2 sns=$3 sdev=$4 cns=$5 cdev=$6 saddr=$7 prog=$8
	shift 8
	local t=${VERBS_TIMEOUT:-240} slog spid rc
	slog=$(mktemp) || return 1
	ns_bg "$sns" timeout -k 5 $((t + 20)) "$VERBS_BIN/$prog" -d "$sdev" -g "${VERBS_GID:-1}" \
		--timeout="$t" </dev/null >"$slog" 2>&1
	spid=$BG_PID
	local expect_fail=0 chk=check_output
	[ "${VERBS_EXPECT:-pass}" = fail ] && expect_fail=1 && chk=check_output_fail
	$chk "$desc: client" "$re" ns_exec "$cns" timeout -k 5 $((t + 20)) \
		"$VERBS_BIN/$prog" -d "$cdev" -g "${VERBS_GID:-1}" --timeout="$t" "$@" "$saddr"
	# VERBS_DIAG_RE: the client's lines worth keeping in the log (timings).
	if [ -n "${VERBS_DIAG_RE:-}" ]; then
		printf '%s\n' "$_mrc_out" | grep -E -- "$VERBS_DIAG_RE" | sed 's/^/# /'
	fi
	# The server ends with its client, or soon after (when the client
	# failed before connecting it would wait for its whole timeout).
	wait_for "${VERBS_SERVER_GRACE:-30}" _peer_gone "$spid" || kill "$spid" 2>/dev/null
	wait "$spid"
	rc=$?
	_mrc_out=$(cat "$slog")
	rm -f "$slog"
	if { [ $rc -eq 0 ] && [ $expect_fail = 0 ]; } || { [ $rc -ne 0 ] && [ $expect_fail = 1 ]; }; then
		if grep -Eq -- "$re" <<<"$_mrc_out"; then
			ok "$desc: server"
			return 0
		fi
	fi
	not_ok "$desc: server"
	_mrc_explain "server exit status $rc (expected ${VERBS_EXPECT:-pass}, output matching /$re/); output:" \
		ns_exec "$sns" "$VERBS_BIN/$prog" -d "$sdev" -g "${VERBS_GID:-1}" --timeout="$t"
	return 1
}

# verify_pair DESC [MRC_VERIFY_OPTION...]: mrc_verify between h1 (server,
# 10.0.0.1) and h2 (client) of mrc_two_hosts; both ends must report zero
# corrupted bytes and zero failed completions.
verify_pair() {
	local desc=$1
	shift
	verbs_pair "$desc" "$VERIFY_CLEAN_RE" h1 "$H1_DEV" h2 "$H2_DEV" 10.0.0.1 mrc_verify "$@"
}

# end_server PID [SECONDS]: a server started in the background, whose
# client has ended, gets SECONDS (default 60) to end too before it is
# killed; returns its exit status.
end_server() {
	local pid=$1 secs=${2:-60}
	if ! wait_for "$secs" _peer_gone "$pid"; then
		diag "the server (pid $pid) was still running $secs s after its client ended: killed"
		kill "$pid" 2>/dev/null
	fi
	wait "$pid"
}

# verify_ends WHAT CLIENT_RC SERVER_RC DIR: the checks "mrc_verify SIDE:
# clean transfer WHAT" of a transfer both ends of which ran in the
# background (their output in DIR/client and DIR/server): each exited 0
# and its last summary line counts 0 corrupted bytes, 0 failed completions.
verify_ends() {
	local what=$1 client_rc=$2 server_rc=$3 dir=$4 side rc last
	for side in client server; do
		if [ $side = client ]; then rc=$client_rc; else rc=$server_rc; fi
		last=$(grep '^mrc_verify:' "$dir/$side" | tail -n 1)
		if [ "$rc" -eq 0 ] && [[ $last =~ ,\ 0\ corrupted\ bytes,\ 0\ failed\ completions ]]; then
			ok "mrc_verify $side: clean transfer $what ($last)"
		else
			not_ok "mrc_verify $side: clean transfer $what"
			diag "exit status $rc; last lines:"
			tail -n 15 "$dir/$side" | sed 's/^/#   /'
		fi
	done
}

# netem_on NS DEV NETEM_ARGS...: replace DEV's root qdisc in NS by netem.
netem_on() {
	local ns=$1 dev=$2
	shift 2
	ns_exec "$ns" tc qdisc replace dev "$dev" root netem "$@"
}

# netem_off NS DEV: back to the default qdisc.
netem_off() {
	ns_exec "$1" tc qdisc del dev "$2" root 2>/dev/null
	return 0
}

# wait_listen NS PORT [SECONDS]: until a TCP socket listens on PORT in NS
# (a server started in the background is ready for its client).
wait_listen() {
	local ns=$1 port=$2 end=$((SECONDS + ${3:-30}))
	while [ $SECONDS -lt $end ]; do
		tcp_listening "$ns" "$port" && return 0
		sleep 0.2
	done
	diag "wait_listen: nothing listens on TCP port $port in $ns after ${3:-30} s"
	return 1
}

# cm_listening NS PORT: an rdma_cm ID listens on PORT in NS.
cm_listening() {
	ns_exec "$1" rdma resource show cm_id 2>/dev/null |
		grep -Eq "state LISTEN .*src-addr [^ ]+:$2 "
}

# tcp_listening NS PORT: a TCP socket listens on PORT in NS.
tcp_listening() {
	ns_exec "$1" ss -Hltn "sport = :$2" 2>/dev/null | grep -q .
}

# cmd_pair KIND DESC PORT CLIENT_RE SERVER_RE SERVER_CMD... -- CLIENT_CMD...:
# SERVER_CMD in h1, then, once it listens on PORT there (KIND tcp: a TCP
# socket; rdma_cm: an rdma_cm ID), CLIENT_CMD in h2; both under "timeout"
# $PAIR_TIMEOUT s (default 60).  Checks: the server listens, the client
# exits 0 and prints a line matching CLIENT_RE, the server exits 0 and
# prints a line matching SERVER_RE (empty: any).  The client's output
# stays in $PAIR_CLIENT_OUT.
cmd_pair() {
	local kind=$1 desc=$2 port=$3 cre=$4 sre=$5 t=${PAIR_TIMEOUT:-60}
	local srv=() slog spid rc
	shift 5
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		srv+=("$1")
		shift
	done
	shift
	slog=$(mktemp) || return 1
	ns_bg h1 timeout -k 5 "$t" "${srv[@]}" </dev/null >"$slog" 2>&1
	spid=$BG_PID
	if ! wait_for 30 "${kind/rdma_cm/cm}_listening" h1 "$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		_mrc_out=$(cat "$slog")
		rm -f "$slog"
		not_ok "$desc: server listens on $kind port $port"
		_mrc_explain "nothing listens within 30 s; its output:" \
			ns_exec h1 "${srv[@]}"
		return 1
	fi
	check_output "$desc: client" "$cre" ns_exec h2 timeout -k 5 "$t" "$@"
	PAIR_CLIENT_OUT=$_mrc_out
	wait_for 30 _peer_gone "$spid" || kill "$spid" 2>/dev/null
	wait "$spid"
	rc=$?
	check_finished "$desc: server" "$rc" "$slog" "$sre" ns_exec h1 "${srv[@]}"
	rm -f "$slog"
}

# A non-zero decimal number (bandwidth, rate) in an output regex.
NZ_NUM='(0*[1-9][0-9]*(\.[0-9]+)?|0*\.[0-9]*[1-9][0-9]*)'

# app_pair DESC RE SNS SDEV CNS CDEV SADDR PORT PROG [ARG...]: an
# unmodified verbs program (ibv_rc_pingpong, perftest) as a server
# ("PROG -d SDEV ARG...") in SNS, then, once it listens on TCP PORT, as a
# client ("PROG -d CDEV ARG... SADDR") in CNS; both under "timeout"
# ($APP_TIMEOUT s, default 120).  Checks: the server listens, the client
# exits 0 and prints a line matching RE, the server exits 0.
app_pair() {
	local desc=$1 re=$2 sns=$3 sdev=$4 cns=$5 cdev=$6 saddr=$7 port=$8 prog=$9
	shift 9
	local t=${APP_TIMEOUT:-120} slog spid rc
	slog=$(mktemp) || return 1
	ns_bg "$sns" timeout -k 5 "$t" "$prog" -d "$sdev" "$@" </dev/null >"$slog" 2>&1
	spid=$BG_PID
	if ! wait_listen "$sns" "$port" 60 >/dev/null; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		_mrc_out=$(cat "$slog")
		rm -f "$slog"
		not_ok "$desc: server listens on TCP port $port"
		_mrc_explain "the server did not listen within 60 s; its output:" \
			ns_exec "$sns" "$prog" -d "$sdev" "$@"
		return 1
	fi
	check_output "$desc: client" "$re" ns_exec "$cns" timeout -k 5 "$t" \
		"$prog" -d "$cdev" "$@" "$saddr"
	wait_for 30 _peer_gone "$spid" || kill "$spid" 2>/dev/null
	wait "$spid"
	rc=$?
	_mrc_out=$(cat "$slog")
	rm -f "$slog"
	if [ $rc -eq 0 ]; then
		ok "$desc: server"
		return 0
	fi
	not_ok "$desc: server"
	_mrc_explain "server exit status $rc, expected 0; output:" \
		ns_exec "$sns" "$prog" -d "$sdev" "$@"
	return 1
}

# Result lines of ibv_rc_pingpong and of perftest's tables.
PINGPONG_RE="^[0-9]+ bytes in [0-9.]+ seconds = $NZ_NUM Mbit/sec"
# "#bytes #iterations BW peak BW average MsgRate" with a non-zero count of
# iterations: with the program's exit status 0, every iteration completed.
# The MB/s columns are not judged: perftest derives them from a CPU-clock
# calibration that fails now and then under TCG ("Correlation coefficient
# r^2 < 0.9", then 0.00 for a run that moved all its bytes; seen in
# test_60's ib_send_bw 1 MiB), as lib_fabric.sh's fab_bw_stop notes too.
_S='[[:space:]]+'	# perftest mixes tabs into its columns
PERF_BW_RE="^[[:space:]]*[0-9]+${_S}0*[1-9][0-9]*${_S}[0-9.]+${_S}[0-9.]+${_S}[0-9.]+"
# "#bytes #iterations t_min t_max t_typical ...": a non-zero count of
# iterations and a non-zero t_typical, or "inf" in every time column:
# the same failed calibration leaves perftest 0 MHz to divide its cycle
# counts by (seen in test_60's ib_write_lat while the sanitizer lane's
# guest shared the host, 2026-12-02).
PERF_LAT_RE="^[[:space:]]*[0-9]+${_S}0*[1-9][0-9]*${_S}(inf${_S}inf${_S}inf|[0-9.]+${_S}[0-9.]+${_S}$NZ_NUM)([[:space:]]|$)"

# mrc_unload_wait [SECONDS]: delete the test namespaces (and with them
# their mrc instances), then rmmod mrc, retrying while the RDMA core
# finishes the deferred unregistration (default 10 s).
mrc_unload_wait() {
	local secs=${1:-10} ns
	for ns in "${_mrc_netns[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	_mrc_netns=()
	local end=$((SECONDS + secs))
	while [ $SECONDS -lt $end ]; do
		[ -d /sys/module/mrc ] || return 0
		rmmod mrc 2>/dev/null && return 0
		sleep 0.2
	done
	rmmod mrc
}

# wait_for SECONDS CMD...: poll CMD (every 0.2 s) until it succeeds.
# Counted in seconds, not iterations: under TCG each "sleep" costs more
# than it sleeps.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	while [ $SECONDS -lt $end ]; do
		"$@" && return 0
		sleep 0.2
	done
	"$@"
}

# no_rdma_link NS DEV: NS has no RDMA link DEV.
no_rdma_link() {
	! ns_exec "$1" rdma link show 2>/dev/null | grep -q "^link $2/"
}

# peer_loss DESC SNS SDEV CNS CDEV SADDR CMD...: a long mrc_verify
# transfer (server on SDEV in SNS, client on CDEV in CNS); once it runs,
# CMD takes the peer away (deletes its netdev, drops all its packets).
# Checks: the transfer starts, the client exits within $PEER_LOSS_LIMIT s
# (default 60) of CMD's start with status != 0 and a summary with failed
# completions and no corrupted byte, the server process ends when killed
# (it is not stuck in the kernel), and CMD completes and succeeds.  The client uses
# --qp-timeout=14 --retry=7: a retry budget of 17.6 s (8 waits of 67 ms
# and 7 doubling ones, mrc-engine.rst); $PEER_LOSS_OPTS adds
# options.
# _peer_loss_reported: the client's output (stdin) shows the loss cleanly:
# failed completions and no corruption; with PEER_LOSS_LOCAL_GONE=1 (the
# client's own device went away too) a verb refused because the device is
# gone is as good as a failed completion.
_peer_loss_reported() {
	local out
	out=$(cat)
	grep -Eq '^mrc_verify: [0-9]+ messages, [0-9]+ bytes, 0 corrupted bytes, [1-9][0-9]* failed completions$' <<<"$out" && return 0
	# The devices may go first (PEER_LOSS_LOCAL_GONE=1): then a verb
	# fails because the client's device is gone (EIO, ENODEV; the
	# completion wait's ibv_req_notify_cq included), or the server, whose
	# device went too, closes the TCP channel, before any flushed
	# completion.  Either outcome still needs 0 corrupted bytes; a hang
	# is caught by the caller's time limit.
	[ "${PEER_LOSS_LOCAL_GONE:-0}" = 1 ] &&
		grep -Eq '^mrc_verify: [0-9]+ messages, [0-9]+ bytes, 0 corrupted bytes, [0-9]+ failed completions$' <<<"$out" &&
		grep -Eq '^mrc_verify: error: .*(Input/output error|No such device|peer closed the TCP connection|TCP (send|recv): )' <<<"$out"
}

peer_loss() {
	local desc=$1 sns=$2 sdev=$3 cns=$4 cdev=$5 saddr=$6
	shift 6
	local slog clog alog spid cpid apid t0 rc arc elapsed limit=${PEER_LOSS_LIMIT:-60}
	local what="$desc: the client fails within $limit s with failed completions, no corruption"
	slog=$(mktemp) && clog=$(mktemp) && alog=$(mktemp) || return 1
	ns_bg "$sns" timeout -k 5 300 "$VERBS_BIN/mrc_verify" -d "$sdev" -g 1 --timeout=240 \
		</dev/null >"$slog" 2>&1
	spid=$BG_PID
	# About 1 GB: it cannot finish before the peer goes.
	# shellcheck disable=SC2086 # PEER_LOSS_OPTS: several words
	ns_bg "$cns" timeout -k 5 300 "$VERBS_BIN/mrc_verify" -d "$cdev" -g 1 --timeout=240 \
		--count=2000 --max-size=1M --qp-timeout=14 --retry=7 --seed=201 \
		${PEER_LOSS_OPTS:-} "$saddr" </dev/null >"$clog" 2>&1
	cpid=$BG_PID
	if ! check "$desc: the long transfer starts" \
		wait_for 60 grep -q "^mrc_verify: client on" "$clog"; then
		kill "$cpid" "$spid" 2>/dev/null
		wait "$cpid" "$spid" 2>/dev/null
		rm -f "$slog" "$clog" "$alog"
		return 1
	fi
	sleep 2
	check "$desc: the transfer still runs" kill -0 "$cpid"
	# CMD runs in the background: deleting a netdev may block until
	# the programs let go of the device, which is what is measured.
	t0=$SECONDS
	"$@" </dev/null >"$alog" 2>&1 &
	apid=$!
	wait_for "$limit" _peer_gone "$cpid"
	elapsed=$((SECONDS - t0))
	if _peer_gone "$cpid"; then
		wait "$cpid"
		rc=$?
		diag "$desc: client exited with status $rc $elapsed s after the peer went"
		_mrc_out=$(cat "$clog")
		if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] && [ $elapsed -le "$limit" ] &&
			_peer_loss_reported <<<"$_mrc_out"; then
			ok "$what"
		else
			not_ok "$what"
			_mrc_explain "client exit status $rc after $elapsed s; output:" mrc_verify client
		fi
	else
		not_ok "$what"
		_mrc_out=$(cat "$clog")
		_mrc_explain "the client still runs after $elapsed s; output:" mrc_verify client
		kill "$cpid" 2>/dev/null
		wait_for 10 _peer_gone "$cpid" || kill -9 "$cpid" 2>/dev/null
		wait "$cpid" 2>/dev/null
	fi
	# SIGTERM (timeout passes it on) ends the server at once unless it is
	# stuck in the kernel.
	kill "$spid" 2>/dev/null
	check "$desc: the server process ends when killed" wait_for 20 _peer_gone "$spid"
	kill -9 "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	# With both programs gone, CMD must have completed.
	wait_for 30 _peer_gone "$apid"
	if _peer_gone "$apid"; then
		wait "$apid"
		arc=$?
	else
		arc="still running"
		kill "$apid" 2>/dev/null
	fi
	_mrc_out=$(cat "$alog")
	if [ "$arc" = 0 ]; then
		ok "$desc: $*"
	else
		not_ok "$desc: $*"
		_mrc_explain "status: $arc; output:" "$@"
	fi
	rm -f "$slog" "$clog" "$alog"
}

_peer_gone() {
	! kill -0 "$1" 2>/dev/null
}
