#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# perftest on mrc against the kernel's soft-RoCE (rdma_rxe), same topology,
# same boot:
#
#   tools/bench/verbs-vs-rxe.sh [--iters N] [--size S] [--timeout S] [--no-vm]
#
# Without --no-vm the script re-runs itself in one tools/vm/run guest (it
# builds nothing: run "make" first).  The topology is the one both support:
# 6.1's rxe works only in the initial network namespace, so a veth pair a
# (10.0.0.1) / b (10.0.0.2) there, rxe0/rxe1 (then mrc0/mrc1) on a/b, perftest
# servers on the "a" device and clients on the "b" device.  Prints a table
# (metric, rxe, mrc, mrc/rxe), then ib_write_bw with 1% netem loss on both
# veth ends, and the command line that reproduces the run.  Every perftest
# run has a timeout; a failed one is printed as FAILED with its reason.
# --no-vm runs on this machine as root: it loads and unloads rdma_rxe and
# mrc and creates (then deletes) the veth pair a/b.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tools/bench/lib_veth_pair.sh
. "$here/lib_veth_pair.sh"
# shellcheck source=tools/bench/lib_bench.sh
. "$here/lib_bench.sh"
orig_args=("$@")

usage() {
	cat <<'USAGE'
usage: tools/bench/verbs-vs-rxe.sh [options]
  --iters N     perftest iterations (-n) per run (default 500)
  --size S      message size of the bandwidth runs (default 65536)
  --timeout S   limit of each perftest run in seconds (default 90)
  --budget S    limit of the whole run in the guest (default 540): a run
                gets at most what is left, and is FAILED unrun when nothing is
  --only STACK  run only rxe or only mrc (the other column is "skipped")
  --no-vm       run here (as root) instead of in a tools/vm/run guest
  -h, --help    this text
USAGE
}

iters=500
size=65536
run_timeout=90
budget=540
vm=1
only=
bench_parse verbs-vs-rxe --iters=iters --size=size --timeout=run_timeout \
	"--only=only=rxe or mrc" --budget=budget -- "$@"
bench_positive verbs-vs-rxe "$iters" "$size" "$run_timeout" "$budget"
case $only in
'' | rxe | mrc) ;;
*) echo "verbs-vs-rxe: --only takes rxe or mrc, not '$only'" >&2; exit 2 ;;
esac
# perftest refuses fewer than 5 iterations.
[ "$iters" -ge 5 ] || { echo "verbs-vs-rxe: --iters must be >= 5" >&2; exit 2; }

bench_in_vm verbs-vs-rxe.sh "$budget" "${orig_args[@]}"
bench_need verbs-vs-rxe ib_write_bw ib_write_lat ib_send_bw rdma tc ss stdbuf sysctl

MRC_KO=${MRC_KO:-$repo/net/mrc/mrc.ko}
bench_start verbs-vs-rxe

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local d
	bench_kill_pids
	for d in rxe0 rxe1 mrc0 mrc1; do
		[ -e "/sys/class/infiniband/$d" ] && rdma link del "$d" 2>/dev/null
	done
	veth_down
	rm -rf "$work"
}

declare -A result	# result[stack:metric] = number or FAILED
metrics=("write_bw" "write_lat_typ" "write_lat_avg" "send_bw")
declare -A label=(
	[write_bw]="ib_write_bw ${size} B, MB/s"
	[write_lat_typ]="ib_write_lat 2 B, t_typical usec"
	[write_lat_avg]="ib_write_lat 2 B, t_avg usec"
	[send_bw]="ib_send_bw ${size} B, MB/s"
	[loss_write_bw]="ib_write_bw ${size} B, 1% loss, MB/s"
)
# Throughput: higher is better; latency: lower is better.
declare -A better=([write_bw]=higher [write_lat_typ]=lower [write_lat_avg]=lower
	[send_bw]=higher [loss_write_bw]=higher)

# wait_listen PORT: until a TCP socket listens on PORT (perftest's
# out-of-band exchange; a client that comes first fails to connect).
wait_listen() {
	for _ in $(seq 100); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# veth_bytes: bytes sent by a and b, to show that the traffic crossed the
# veth (where netem acts) rather than the loopback device.
veth_bytes() {
	echo $(($(cat /sys/class/net/a/statistics/tx_bytes) + $(cat /sys/class/net/b/statistics/tx_bytes)))
}

tcp_port=18515

# last_lines FILE N: the last N lines of FILE that say something (perftest
# ends its output with a dashed rule; its errors come just before).
last_lines() {
	grep -Ev '^[[:space:]]*(-+)?[[:space:]]*$' "$1" | tail -n "$2" | sed 's/^/    /'
}

# perf STACK KEY TOOL SRV_DEV CLI_DEV [ARGS...]: one perftest server/client
# run; the parsed value goes to result[STACK:KEY], FAILED (and the reason
# on stdout) otherwise.
perf() {
	local stack=$1 key=$2 tool=$3 sdev=$4 cdev=$5
	shift 5
	local sgid cgid srv=$work/$stack-$key.server cli=$work/$stack-$key.client
	local spid rc val reason b0 t0 tall=$SECONDS limit left
	tcp_port=$((tcp_port + 1))
	result[$stack:$key]=FAILED
	# The whole script must end in time (< 10 minutes with the boot), even
	# if every run hangs: a run gets at most what is left of the budget,
	# keeping 15 s for the teardown and the table.
	left=$((budget - (SECONDS - started) - 15))
	limit=$run_timeout
	[ "$left" -lt "$limit" ] && limit=$left
	if [ "$limit" -lt 10 ]; then
		say "FAILED: $stack ${label[$key]}: not run, the time budget (--budget $budget) is spent"
		return 1
	fi
	if ! sgid=$(gid_index "$sdev" 10.0.0.1) || ! cgid=$(gid_index "$cdev" 10.0.0.2); then
		say "FAILED: $stack ${label[$key]}: no IPv4 GID on $sdev/$cdev"
		return 1
	fi
	# Both ends must use the same GID type; -x is per side, so pass each
	# its own index (they are equal in practice).
	local common=(-F -n "$iters" -p "$tcp_port" "$@")
	timeout -k 5 "$limit" stdbuf -oL -eL "$tool" -d "$sdev" -x "$sgid" "${common[@]}" \
		>"$srv" 2>&1 </dev/null &
	spid=$!
	pids+=("$spid")
	if ! wait_listen "$tcp_port"; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		say "FAILED: $stack ${label[$key]}: server did not start: $(tail -n 3 "$srv" | tr '\n' ' ')"
		return 1
	fi
	b0=$(veth_bytes)
	t0=$SECONDS
	timeout -k 5 "$limit" stdbuf -oL -eL "$tool" -d "$cdev" -x "$cgid" "${common[@]}" 10.0.0.1 \
		>"$cli" 2>&1 </dev/null
	rc=$?
	# The server ends with the client; if the client failed, don't wait
	# for the server's own timeout.
	[ $rc -eq 0 ] || kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	pids=("${pids[@]/$spid/}")
	case $key in
	*lat_typ) val=$(awk '/t_typical/ { h = 1; next } h && $1 ~ /^[0-9]+$/ && NF >= 6 { print $5; exit }' "$cli") ;;
	*lat_avg) val=$(awk '/t_avg/ { h = 1; next } h && $1 ~ /^[0-9]+$/ && NF >= 6 { print $6; exit }' "$cli") ;;
	*) val=$(awk '/BW average/ { h = 1; next } h && $1 ~ /^[0-9]+$/ && NF >= 4 { print $4; exit }' "$cli") ;;
	esac
	if [ $rc -eq 0 ] && [[ $val =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
		result[$stack:$key]=$val
		say "  $stack: ${label[$key]}: $val (client $((SECONDS - t0)) s of $((SECONDS - tall)) s," \
			"$(($(veth_bytes) - b0)) bytes over the veth)"
		return 0
	fi
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		# The bytes tell a stall (a few KB of retries) from a slow run.
		reason="timed out after $limit s, $(($(veth_bytes) - b0)) bytes over the veth"
	elif [ $rc -ne 0 ]; then
		reason="exit status $rc"
	else
		reason="no result table in the output"
	fi
	say "FAILED: $stack ${label[$key]}: $reason; client output (last lines):"
	last_lines "$cli" 10
	say "    server output (last lines):"
	last_lines "$srv" 5
	return 1
}

# suite STACK DEV_A DEV_B: the three runs of the table.
suite() {
	local stack=$1 da=$2 db=$3
	perf "$stack" write_bw ib_write_bw "$da" "$db" -s "$size"
	# One latency run gives both t_typical and t_avg.
	perf "$stack" write_lat_typ ib_write_lat "$da" "$db" &&
		result[$stack:write_lat_avg]=$(awk '/t_avg/ { h = 1; next } h && $1 ~ /^[0-9]+$/ && NF >= 6 { print $6; exit }' \
			"$work/$stack-write_lat_typ.client")
	[ -n "${result[$stack:write_lat_avg]:-}" ] || result[$stack:write_lat_avg]=FAILED
	perf "$stack" send_bw ib_send_bw "$da" "$db" -s "$size"
}

# loss_on/loss_off: 1% random loss on both directions of the veth.
loss_on() {
	tc qdisc replace dev a root netem loss 1% && tc qdisc replace dev b root netem loss 1%
}
loss_off() {
	tc qdisc del dev a root 2>/dev/null
	tc qdisc del dev b root 2>/dev/null
	return 0
}

# stack_run STACK: the rdma links STACK0 on a and STACK1 on b (of type
# STACK), the suite on them, then ib_write_bw with 1% loss; fails (the
# reason printed) only if the links cannot be added.
stack_run() {
	local s=$1 out
	if ! out=$( { rdma link add "${s}0" type "$s" netdev a && rdma link add "${s}1" type "$s" netdev b; } 2>&1); then
		say "FAILED: $s: rdma link add: $out"
		return 1
	fi
	suite "$s" "${s}0" "${s}1"
	say "== $s, 1% loss on a and b ($(elapsed))"
	loss_on && perf "$s" loss_write_bw ib_write_bw "${s}0" "${s}1" -s "$size"
	loss_off
	return 0
}

# stack_del STACK: the links of stack_run, those that are there.
stack_del() {
	local d
	for d in "${1}0" "${1}1"; do
		[ -e "/sys/class/infiniband/$d" ] && rdma link del "$d"
	done
}

say "verbs-vs-rxe: $(uname -r), perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null || echo '?')," \
	"iters $iters, size $size, timeout $run_timeout s per run, budget $budget s${MRC_VM:+, in tools/vm/run guest}"
veth_up 1500 || { say "verbs-vs-rxe: cannot create the veth pair a/b"; exit 1; }
bench_dmesg_mark verbs-vs-rxe

# --- rdma_rxe ---------------------------------------------------------------
say "== rxe ($(elapsed))"
rxe_ok=0
if [ "$only" = mrc ]; then
	say "skipped (--only mrc)"
elif [ -d /sys/module/mrc ]; then
	say "FAILED: rxe: mrc is loaded (it refuses to coexist with rdma_rxe); rmmod mrc first"
elif ! out=$(modprobe rdma_rxe 2>&1); then
	say "FAILED: rxe: modprobe rdma_rxe: $out"
else
	# rxe retransmits go-back-N from the lost PSN: expect a collapse or a
	# timeout (retry exceeded) in the loss run, reported as what it is.
	stack_run rxe && rxe_ok=1
fi
stack_del rxe
if [ -d /sys/module/rdma_rxe ] && ! out=$(rmmod rdma_rxe 2>&1); then
	say "verbs-vs-rxe: rmmod rdma_rxe failed ($out): mrc cannot load"
fi
[ "$rxe_ok" = 1 ] || for k in "${metrics[@]}" loss_write_bw; do
	result[rxe:$k]=FAILED
	[ "$only" = mrc ] && result[rxe:$k]=skipped
done

# --- mrc --------------------------------------------------------------------
say "== mrc ($(elapsed))"
mrc_ok=0
# load_mrc: as selftests/mrc/lib.sh mrc_load: the in-tree mrc.ko (its
# dependencies by modprobe first: insmod does not resolve them), else an
# installed one.
load_mrc() {
	local dep
	[ -d /sys/module/mrc ] && return 0
	if [ -f "$MRC_KO" ]; then
		for dep in $(modinfo -F depends "$MRC_KO" 2>/dev/null | tr ',' ' '); do
			modprobe "$dep" || return 1
		done
		insmod "$MRC_KO"
	else
		modprobe mrc
	fi
}
if [ "$only" = rxe ]; then
	say "skipped (--only rxe)"
elif ! out=$(load_mrc 2>&1); then
	say "FAILED: mrc: cannot load $MRC_KO (run make): $out"
else
	stack_run mrc && mrc_ok=1
fi
stack_del mrc
[ -d /sys/module/mrc ] && rmmod mrc
[ "$mrc_ok" = 1 ] || for k in "${metrics[@]}" loss_write_bw; do
	result[mrc:$k]=FAILED
	[ "$only" = rxe ] && result[mrc:$k]=skipped
done

# --- results ----------------------------------------------------------------
# ratio KEY: mrc/rxe with a note of which direction is better.
ratio() {
	local r=${result[rxe:$1]} m=${result[mrc:$1]}
	if ! [[ $r =~ ^[0-9] && $m =~ ^[0-9] ]] || [ "$(awk -v r="$r" 'BEGIN { print (r == 0) }')" = 1 ]; then
		echo "-"
		return
	fi
	awk -v r="$r" -v m="$m" -v b="${better[$1]}" 'BEGIN { printf "%.2f (%s is better)", m / r, b }'
}

say ""
say "== results ($(elapsed) in all)"
printf '%-36s %12s %12s  %s\n' metric rxe mrc "mrc/rxe"
for k in "${metrics[@]}" loss_write_bw; do
	printf '%-36s %12s %12s  %s\n' "${label[$k]}" "${result[rxe:$k]}" "${result[mrc:$k]}" "$(ratio "$k")"
done
bench_dmesg_report
nfail=0
for v in "${result[@]}"; do
	[ "$v" = FAILED ] && nfail=$((nfail + 1))
done
say "$nfail of $((${#result[@]})) results FAILED (details above)"
say ""
bench_reproduce verbs-vs-rxe.sh "${orig_args[@]}"
# A benchmark, not a test: it succeeds when it ran to the end, whatever
# failed; the FAILED lines say what did.
exit 0
