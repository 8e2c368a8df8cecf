#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# perftest on mrc against the kernel's soft-RoCE (rdma_rxe), interleaved in
# one boot: rounds of rxe then mrc, every metric of benchstat.py's plan in
# each, iperf3 TCP on the same veth once per round; then a size sweep of
# both (plotted), a perf profile of mrc, and the goals table (median of the
# per-round ratios, their spread, met / not met / not decided).
#
#   tools/bench/verbs-vs-rxe.sh [--rounds N] [--quick] [--no-vm] ...
#
# Without --no-vm the script re-runs itself in one tools/vm/run guest (it
# builds nothing: run "make" first).  Topology: 6.1's rxe works only in the
# initial network namespace, so a veth pair a (10.0.0.1) / b (10.0.0.2)
# there (lib_veth_pair.sh), rxe0/rxe1 or mrc0/mrc1 on a/b, perftest servers
# on the "a" device and clients on the "b" device.  Every run is under
# "timeout" and the whole run under a budget; a failed run is a FAILED row
# with its reason.  The parsing and the verdicts are benchstat.py's (unit
# tested by tools/bench/test_benchstat.py).  --no-vm runs on this machine
# as root: it loads and unloads rdma_rxe and mrc and creates (then deletes)
# the veth pair a/b.
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
  --rounds N    interleaved rounds (rxe, mrc) of every metric (default 5)
  --quick       fewer metrics (write/send bw, write lat, loss, iperf3),
                3 rounds unless --rounds, no sweep, no profile
  --no-sweep    skip the -a size sweep and its plot (--sweep: do it)
  --no-profile  skip the perf record of mrc (--profile: do it)
  --timeout S   limit of each perftest run in seconds (default 60)
  --budget S    limit of the whole run in the guest (default 2100, --quick
                600): a run gets at most what is left, and is FAILED unrun
                when nothing is; the rounds leave 200 s for the profile
                and 360 s for the sweep
  --smp N       guest vCPUs (default 2)
  --sched P     idle (default): perftest and iperf3 run SCHED_IDLE, so
                that any kernel thread preempts them at once; normal: as
                started
  --pin on|off  on (default): the server on the next-to-last CPU, the
                client on the last
  --out DIR     where the results, the table, the plot and the profile go
                (default build/bench of the tree; the guest's /tmp is its
                own)
  --no-vm       run here (as root) instead of in a tools/vm/run guest
  -h, --help    this text
USAGE
}

rounds=
run_timeout=60
budget=
vm=1
smp=2
sched=idle
pin=on
out=$repo/build/bench
quick=0
sweep=
profile=
args=()
for a in "$@"; do
	case $a in
	--quick) quick=1 ;;
	--sweep) sweep=1 ;;
	--no-sweep) sweep=0 ;;
	--profile) profile=1 ;;
	--no-profile) profile=0 ;;
	*) args+=("$a") ;;
	esac
done
bench_parse verbs-vs-rxe --rounds=rounds --timeout=run_timeout --budget=budget \
	--smp=smp "--sched=sched=idle or normal" "--pin=pin=on or off" \
	"--out=out=a directory" -- "${args[@]}"
if [ "$quick" = 1 ]; then
	: "${sweep:=0}" "${profile:=0}" "${rounds:=3}" "${budget:=600}"
fi
: "${sweep:=1}" "${profile:=1}" "${rounds:=5}" "${budget:=2100}"
bench_positive verbs-vs-rxe "$rounds" "$run_timeout" "$budget" "$smp"
case $sched in idle | normal) ;; *) echo "verbs-vs-rxe: --sched takes idle or normal" >&2; exit 2 ;; esac
case $pin in on | off) ;; *) echo "verbs-vs-rxe: --pin takes on or off" >&2; exit 2 ;; esac

# The guest's / is this machine's, read-only under a tmpfs overlay: what
# the guest writes to DIR is gone with it.  So the guest ends its output
# with DIR's files as a base64 tar between two marker lines, and this side
# (not exec'ing tools/vm/run as bench_in_vm does) unpacks them into DIR
# and hides them from the terminal.
mark=verbs-vs-rxe:\ artifacts
if [ "$vm" = 1 ] && [ "${MRC_VM:-}" != 1 ]; then
	cd "$repo" || exit 1
	mkdir -p "$out" || exit 1
	console=$(mktemp "${TMPDIR:-/tmp}/verbs-vs-rxe.XXXXXX") || exit 1
	"$repo/tools/vm/run" --timeout $((budget + 120)) --smp "$smp" \
		-- "$repo/tools/bench/verbs-vs-rxe.sh" "${orig_args[@]}" |
		tee "$console" | awk -v m="$mark" 'index($0, m " begin") == 1 { skip = 1 } !skip { print; fflush() }
			index($0, m " end") == 1 { skip = 0 }'
	rc=${PIPESTATUS[0]}
	if grep -q "^$mark end" "$console"; then
		awk -v m="$mark" 'index($0, m " end") == 1 { f = 0 } f { print } index($0, m " begin") == 1 { f = 1 }' \
			"$console" | tr -d '\r' | base64 -d | tar xzf - -C "$out" &&
			echo "verbs-vs-rxe: the guest's $out unpacked here"
	else
		echo "verbs-vs-rxe: the guest sent no files back"
	fi
	rm -f "$console"
	exit "$rc"
fi
bench_need verbs-vs-rxe ib_write_bw ib_write_lat ib_send_bw ib_send_lat ib_read_bw \
	ib_read_lat rdma tc ss stdbuf sysctl taskset chrt iperf3

py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "verbs-vs-rxe: python3 not found" >&2; exit 1; }
# -S: no site packages to import, a faster start under TCG (every file
# the guest reads comes over 9p).
bstat() { "$py" -S "$here/benchstat.py" "$@"; }
quick_arg=()
[ "$quick" = 1 ] && quick_arg=(--quick)

MRC_KO=${MRC_KO:-$repo/net/mrc/mrc.ko}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
results=$out/results.tsv
bench_start verbs-vs-rxe

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	bench_kill_pids
	stack_down rxe
	stack_down mrc
	veth_down
	rm -rf "$work"
}

# Where the two ends run: with --pin, the server on CPU n-2 and the client
# on CPU n-1 (n = CPUs; both on CPU 0 with one), so that they never take
# turns on one CPU; with --sched idle as SCHED_IDLE tasks.
ncpu=$(nproc)
srv_cpu=$((ncpu >= 2 ? ncpu - 2 : 0))
cli_cpu=$((ncpu - 1))
# launch WHO: in $pre, the command prefix that starts a program as --pin
# and --sched say for WHO (srv or cli).
launch() {
	pre=()
	if [ "$pin" = on ]; then
		if [ "$1" = srv ]; then pre+=(taskset -c "$srv_cpu"); else pre+=(taskset -c "$cli_cpu"); fi
	fi
	[ "$sched" = idle ] && pre+=(chrt -i 0)
	return 0
}

# wait_listen PORT: until a TCP socket listens on PORT (perftest's and
# iperf3's out-of-band exchange; a client that comes first fails).
wait_listen() {
	for _ in $(seq 150); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

veth_bytes() {
	echo $(($(cat /sys/class/net/a/statistics/tx_bytes) + $(cat /sys/class/net/b/statistics/tx_bytes)))
}

# kernel_ticks: system + irq + softirq of every CPU, /proc/stat's "cpu"
# line, in USER_HZ ticks.  The kernel's share, wherever it ran (the
# posting process's syscalls, softirqs, kworkers, ksoftirqd); user time is
# left out: perftest busy-polls its CQ in userspace on both stacks, which
# is wall-clock time, not the transport's cost.
kernel_ticks() {
	awk '$1 == "cpu" { print $4 + $7 + $8; exit }' /proc/stat
}
hz=$(getconf CLK_TCK)

last_lines() {
	grep -Ev '^[[:space:]]*(-+)?[[:space:]]*$' "$1" | tail -n "$2" | sed 's/^/    /'
}

# limit_left: the seconds a run may take: --timeout, but never more than
# what is left of the budget less 60 s for the sweep's plot and the table.
# $reserve more while the rounds run (the profile's and the sweep's share);
# $run_limit, when set, instead of --timeout.
reserve=0
limit_left() {
	local left=$((budget - (SECONDS - started) - 60 - reserve)) t=${run_limit:-$run_timeout}
	[ "$left" -lt "$t" ] && echo "$left" || echo "$t"
}

# row ROUND STACK METRIC VALUE [REASON]: one line of the results file.
row() {
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >>"$results"
}

tcp_port=18515

# perftest ROUND STACK KEY TOOL KIND ARGS...: one server/client run of a
# plan entry (KIND bw, lat or loss; sweep-bw/sweep-lat for -a runs), up to
# two tries when perftest's clock calibration failed; the values as rows
# of ROUND (0: not part of the table), or FAILED rows with the reason.
# $prof_out, when set, is where perf record puts the client run's profile.
perftest() {
	local rnd=$1 s=$2 key=$3 tool=$4 kind=$5
	shift 5
	local sdev=${s}0 cdev=${s}1 sgid cgid srv cli spid rc val reason
	local b0 t0 k0 k1 limit try pkind prc prefix=() pre=()
	for try in 1 2; do
		limit=$(limit_left)
		if [ "$limit" -lt 10 ]; then
			reason="not run, the time budget (--budget $budget) is spent"
			break
		fi
		if ! sgid=$(gid_index "$sdev" 10.0.0.1) || ! cgid=$(gid_index "$cdev" 10.0.0.2); then
			reason="no IPv4 GID on $sdev/$cdev"
			break
		fi
		tcp_port=$((tcp_port + 1))
		srv=$work/$rnd-$s-$key-$try.server
		cli=$work/$rnd-$s-$key-$try.client
		# -F: no cpufreq warning (TCG has no cpufreq).
		local common=(-F -p "$tcp_port" "$@")
		launch srv
		timeout -k 5 "$limit" "${pre[@]}" stdbuf -oL -eL "$tool" -d "$sdev" -x "$sgid" \
			"${common[@]}" >"$srv" 2>&1 </dev/null &
		spid=$!
		pids+=("$spid")
		if ! wait_listen "$tcp_port"; then
			kill "$spid" 2>/dev/null
			wait "$spid" 2>/dev/null
			reason="server did not start: $(tail -n 2 "$srv" | tr '\n\t' '  ')"
			break
		fi
		prefix=()
		[ -n "${prof_out:-}" ] && prefix=(perf record -q -e cpu-clock -F 1000 -a -g -o "$prof_out" --)
		b0=$(veth_bytes)
		k0=$(kernel_ticks)
		t0=$SECONDS
		launch cli
		timeout -k 5 "$limit" "${prefix[@]}" "${pre[@]}" stdbuf -oL -eL "$tool" -d "$cdev" \
			-x "$cgid" "${common[@]}" 10.0.0.1 >"$cli" 2>&1 </dev/null
		rc=$?
		k1=$(kernel_ticks)
		[ $rc -eq 0 ] || kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		pids=("${pids[@]/$spid/}")
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			reason="timed out after $limit s, $(($(veth_bytes) - b0)) bytes over the veth"
			break
		fi
		pkind=$kind
		[ "$kind" = loss ] && pkind=bw
		val=$(bstat parse "$pkind" "$cli")
		prc=$?
		if [ $prc -eq 0 ] && [ $rc -eq 0 ]; then
			reason=
			break
		fi
		reason=${val:-exit status $rc}
		[ $rc -ne 0 ] && reason="exit status $rc: $(last_lines "$cli" 2 | tr '\n' ' ')"
		case $reason in *calibration*) say "  $s $key: $reason; again" ;; *) break ;; esac
	done
	if [ -n "$reason" ]; then
		say "FAILED: round $rnd $s $key: $reason"
		[ -n "${cli:-}" ] && [ -f "$cli" ] && { last_lines "$cli" 6; say "    server:"; last_lines "$srv" 3; }
		case $kind in
		lat) row "$rnd" "$s" "$key:typ" FAILED "$reason"; row "$rnd" "$s" "$key:p99" FAILED "$reason" ;;
		bw | loss) row "$rnd" "$s" "$key" FAILED "$reason"; row "$rnd" "$s" "$key:cpu" FAILED "$reason" ;;
		esac
		return 1
	fi
	case $kind in
	lat)
		row "$rnd" "$s" "$key:typ" "${val% *}"
		row "$rnd" "$s" "$key:p99" "${val#* }"
		;;
	bw | loss)
		row "$rnd" "$s" "$key" "$val"
		# Kernel CPU seconds per 10^9 bytes of payload (-s x -n x -q).
		local bytes
		bytes=$(awk 'BEGIN { s = 65536; n = 1000; q = 1 }
			{ for (i = 1; i < NF; i++) { if ($i == "-s") s = $(i + 1); if ($i == "-n") n = $(i + 1); if ($i == "-q") q = $(i + 1) } }
			END { print s * n * q }' <<<"$*")
		row "$rnd" "$s" "$key:cpu" "$(awk -v t=$((k1 - k0)) -v hz="$hz" -v b="$bytes" \
			'BEGIN { printf "%.3f", t / hz / (b / 1e9) }')"
		;;
	sweep-*)
		printf '%s\n' "$val" >"$out/$kind-$s.dat"
		val="$(wc -l <"$out/$kind-$s.dat") sizes"
		;;
	esac
	say "  round $rnd $s $key: $val (client $((SECONDS - t0)) s, $(($(veth_bytes) - b0)) bytes over the veth)"
	return 0
}

# iperf3_run ROUND: TCP from b's address to a's over the veth, 3 s.
iperf3_run() {
	local rnd=$1 limit spid val port=5201 f=$work/iperf3-$1.json pre=()
	limit=$(limit_left)
	if [ "$limit" -lt 10 ]; then
		row "$rnd" tcp iperf3 FAILED "not run, the time budget is spent"
		return 1
	fi
	launch srv
	timeout -k 5 "$limit" "${pre[@]}" iperf3 -s -1 -B 10.0.0.1 -p $port >"$work/iperf3-srv" 2>&1 </dev/null &
	spid=$!
	pids+=("$spid")
	if ! wait_listen $port; then
		kill "$spid" 2>/dev/null
		row "$rnd" tcp iperf3 FAILED "iperf3 server did not start"
		return 1
	fi
	launch cli
	timeout -k 5 "$limit" "${pre[@]}" iperf3 -c 10.0.0.1 -B 10.0.0.2 -p $port -t 3 -J >"$f" 2>&1 </dev/null
	wait "$spid" 2>/dev/null
	pids=("${pids[@]/$spid/}")
	if val=$(bstat iperf3 "$f"); then
		row "$rnd" tcp iperf3 "$val"
		say "  round $rnd tcp iperf3: $val MB/s"
	else
		row "$rnd" tcp iperf3 FAILED "$val"
		say "FAILED: round $rnd iperf3: $val"
	fi
}

loss_on() {
	tc qdisc replace dev a root netem loss 1% && tc qdisc replace dev b root netem loss 1%
}
loss_off() {
	tc qdisc del dev a root 2>/dev/null
	tc qdisc del dev b root 2>/dev/null
	return 0
}

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

# stack_up STACK: its module and the links STACK0 on a, STACK1 on b; the
# reason on stdout when that fails.  mrc refuses to load next to rdma_rxe,
# so each round unloads the other.
stack_up() {
	local s=$1
	case $s in
	rxe) modprobe rdma_rxe 2>&1 || return 1 ;;
	mrc) load_mrc 2>&1 || { echo "cannot load $MRC_KO (run make)"; return 1; } ;;
	esac
	rdma link add "${s}0" type "$s" netdev a 2>&1 && rdma link add "${s}1" type "$s" netdev b 2>&1
}

# stack_down STACK: the links and the module of stack_up, what is there.
stack_down() {
	local d mod=$1
	[ "$1" = rxe ] && mod=rdma_rxe
	for d in "${1}0" "${1}1"; do
		[ -e "/sys/class/infiniband/$d" ] && rdma link del "$d"
	done
	[ -d "/sys/module/$mod" ] && rmmod "$mod" 2>/dev/null
	return 0
}

mapfile -t plan < <(bstat plan "${quick_arg[@]}")
[ ${#plan[@]} -gt 0 ] || { echo "verbs-vs-rxe: no plan from benchstat.py" >&2; exit 1; }

# round_stack ROUND STACK: every entry of the plan on STACK.
round_stack() {
	local rnd=$1 s=$2 entry key tool kind why
	local -a a
	say "== round $rnd: $s ($(elapsed))"
	if ! why=$(stack_up "$s"); then
		say "FAILED: round $rnd $s: $why"
		for entry in "${plan[@]}"; do
			read -r key _ kind _ <<<"$entry"
			case $kind in
			lat) row "$rnd" "$s" "$key:typ" FAILED "$why"; row "$rnd" "$s" "$key:p99" FAILED "$why" ;;
			*) row "$rnd" "$s" "$key" FAILED "$why"; row "$rnd" "$s" "$key:cpu" FAILED "$why" ;;
			esac
		done
		stack_down "$s"
		return 1
	fi
	for entry in "${plan[@]}"; do
		read -r key tool kind _ <<<"$entry"
		read -r -a a <<<"$entry"
		[ "$kind" = loss ] && loss_on
		perftest "$rnd" "$s" "$key" "$tool" "$kind" "${a[@]:3}"
		[ "$kind" = loss ] && loss_off
	done
	stack_down "$s"
}

say "verbs-vs-rxe: $(uname -r), perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null || echo '?')," \
	"$rounds rounds, $ncpu CPUs, sched $sched, pin $pin (server CPU $srv_cpu, client CPU $cli_cpu)," \
	"timeout $run_timeout s per run, budget $budget s${MRC_VM:+, in a tools/vm/run guest}"
# The guest's clocks: a timer-driven path (mrc's soft hrtimers) waits for
# the next tick when high-resolution timers are off.
say "clock: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)," \
	"clockevent $(awk -F': ' '/^Clock Event Device/ { print $2; exit }' /proc/timer_list 2>/dev/null)," \
	"hres_active $(awk '/hres_active/ { print $3; exit }' /proc/timer_list 2>/dev/null)"
stack_down mrc
stack_down rxe
if [ -d /sys/module/mrc ] || [ -d /sys/module/rdma_rxe ]; then
	say "verbs-vs-rxe: cannot unload mrc / rdma_rxe before the run"
	exit 1
fi
veth_up 1500 || { say "verbs-vs-rxe: cannot create the veth pair a/b"; exit 1; }
bench_dmesg_mark verbs-vs-rxe
{
	printf '# verbs-vs-rxe %s: %s, %s rounds, %s CPUs, sched %s, pin %s\n' \
		"$(date -u +%FT%TZ)" "$(uname -r)" "$rounds" "$ncpu" "$sched" "$pin"
	printf '# round\tstack\tmetric\tvalue\treason\n'
} >"$results"

# The rounds leave 200 s for the profile and 360 s for the sweep.
[ "$profile" = 1 ] && reserve=$((reserve + 200))
[ "$sweep" = 1 ] && reserve=$((reserve + 360))
for rnd in $(seq "$rounds"); do
	iperf3_run "$rnd"
	round_stack "$rnd" rxe
	round_stack "$rnd" mrc
done
reserve=0

if [ "$profile" = 1 ]; then
	say "== profile: mrc, perf record -e cpu-clock -a -g ($(elapsed))"
	if ! command -v perf >/dev/null; then
		say "FAILED: profile: perf not found (linux-perf)"
	elif why=$(stack_up mrc); then
		for entry in "write_bw_64k ib_write_bw bw -s 65536 -n 64" "write_lat_2 ib_write_lat lat -s 2 -n 500"; do
			read -r key tool kind _ <<<"$entry"
			read -r -a a <<<"$entry"
			prof_out=$work/perf-$key.data
			if perftest 0 mrc "$key" "$tool" "$kind" "${a[@]:3}" && [ -s "$prof_out" ]; then
				# Self time by symbol; then the inclusive time of mrc's own
				# functions (where each packet path's cost starts).
				{
					echo "# perf record -e cpu-clock -a -g, mrc $tool ${a[*]:3}: self time by symbol"
					timeout 90 perf report -i "$prof_out" --stdio --no-children --sort symbol \
						-g none --percent-limit 0.5 2>/dev/null | grep -v '^$'
					echo "# inclusive (children) time of mrc's functions"
					timeout 90 perf report -i "$prof_out" --stdio --children --sort symbol \
						-g none 2>/dev/null | grep -E '\] (mrc|udp|ip_|__ip|veth|__netif|net_rx|__dev_queue|ib_uverbs|rxe)' | head -n 40
				} >"$out/profile-$key.txt"
				say "profile: $out/profile-$key.txt"
				sed -n '2,20p' "$out/profile-$key.txt" | sed 's/^/    /'
			fi
			prof_out=
		done
	else
		say "FAILED: profile: $why"
	fi
	stack_down mrc
fi

if [ "$sweep" = 1 ]; then
	for s in rxe mrc; do
		say "== sweep (-a): $s ($(elapsed))"
		rm -f "$out/sweep-bw-$s.dat" "$out/sweep-lat-$s.dat"
		if why=$(stack_up "$s"); then
			# -n 5 (perftest's least): -a goes up to 8 MiB, 16 MiB of
			# messages per iteration (both ways for the latency test).
			run_limit=150 perftest 0 "$s" sweep_bw ib_write_bw sweep-bw -a -n 5
			run_limit=150 perftest 0 "$s" sweep_lat ib_write_lat sweep-lat -a -n 5
		else
			say "FAILED: sweep $s: $why"
		fi
		stack_down "$s"
	done
	if [ -s "$out/sweep-bw-rxe.dat" ] || [ -s "$out/sweep-bw-mrc.dat" ]; then
		if gnuplot -e "dir='$out'" "$here/sweep.gp" 2>"$work/gnuplot.err"; then
			say "plot: $out/sweep.png"
		else
			say "FAILED: gnuplot: $(head -n 3 "$work/gnuplot.err" | tr '\n' ' ')"
		fi
	fi
fi

say ""
say "== results ($(elapsed) in all): median over $rounds rounds of mrc / base per round;" \
	"base: rxe, iperf3 TCP or mrc lossless; bw MB/s (2^20), latency usec, CPU s/GB"
bstat report "$results" --rounds "$rounds" "${quick_arg[@]}" | tee "$out/table.txt"
bench_dmesg_report
say "results: $results"
say ""
bench_reproduce verbs-vs-rxe.sh "${orig_args[@]}"
if [ "${MRC_VM:-}" = 1 ]; then
	say "$mark begin"
	tar czf - -C "$out" --exclude='*.data' . | base64 -w 76
	say "$mark end"
fi
# A benchmark, not a test: it succeeds when it ran to the end, whatever
# failed; the FAILED lines and rows say what did.
exit 0
