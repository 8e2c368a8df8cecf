#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Multi-plane throughput, loss and failover of mrc on rate-limited planes,
# in one tools/vm/run boot:
#
#   tools/bench/planes-tbf.sh [--rate R] [--secs S] [--size B] [--qp-timeout T]
#                             [--budget S] [--no-vm]
#
# Four direct planes (selftests/mrc/lib_fabric.sh fabric_direct 4: h1:eP <->
# h2:eP), every veth end a bottleneck of the same rate R (tbf; for mrc with
# ECN marking, as the ports of an MRC fabric; see shape()), ib_write_bw
# (h2 writes to h1, S seconds measured after the first 2) on:
#   mrc, route over the 4 planes   (aggregate, as a ratio to 4R)
#   mrc, route over plane 1 only    (ratio to 4R)
#   rdma_rxe on one plane of rate R (ratio to 4R; 6.1's rxe works only in
#                                    the initial namespace: a veth pair a/b
#                                    there, tools/bench/lib_veth_pair.sh)
# then 1% netem loss on every plane (goodput as a ratio of the lossless
# figure of the same stack), then failover: the longest pause in receive
# progress (the bytes h1's mrc instance received, sampled every 10 ms) when
# plane 2 fails in the middle of a transfer, as a multiple of the ACK
# timeout (4.096 us x 2^T, the QP's timeout attribute), once with h1's
# netdev of plane 2 set down (h1 sees it and tells h2) and once silently
# (every packet of plane 2 dropped at h1's ingress, no carrier change).
# Throughput is the writes ib_write_bw completed (its result rows, one
# per 2 s) x the message size.  Prints a table and the command line that
# reproduces it.  Builds nothing: run "make" first.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tools/bench/lib_bench.sh
. "$here/lib_bench.sh"
orig_args=("$@")

usage() {
	cat <<'USAGE'
usage: tools/bench/planes-tbf.sh [options]
  --rate R        tbf rate of every plane (tc syntax, default 8mbit: 4 planes
                  of it are below what TCG moves, about 40-60 mbit)
  --secs S        seconds measured per ib_write_bw run (default 10)
  --size B        message size (default 65536)
  --mtu M         MTU of every veth (default 9000: jumbo frames, as RDMA
                  fabrics run, and a 4096-byte RDMA path MTU; 1500 gives
                  1024, where the headers take 8% of the wire)
  --qp-timeout T  QP timeout exponent of the runs (-u, default 14:
                  ACK timeout 4.096 us x 2^14 = 67 ms)
  --budget S      limit of the whole run in the guest (default 720)
  --no-vm         run here (as root) instead of in a tools/vm/run guest
  -h, --help      this text
USAGE
}

rate=8mbit
mtu=9000
secs=10
size=65536
qpt=14
budget=720
vm=1
bench_parse planes-tbf --rate=rate --secs=secs --size=size --mtu=mtu \
	--qp-timeout=qpt --budget=budget -- "$@"
bench_positive planes-tbf "$secs" "$size" "$budget" "$mtu"
[[ $qpt =~ ^[0-9]+$ ]] && [ "$qpt" -le 31 ] ||
	{ echo "planes-tbf: --qp-timeout takes 0..31" >&2; exit 2; }
# The rate in bit/s, for the ratios: tc's units (bit, kbit, mbit, gbit).
rate_bps=$(awk -v r="$rate" 'BEGIN {
	if (match(r, /^[0-9]+(\.[0-9]+)?/) == 0) exit 1
	n = substr(r, 1, RLENGTH); u = tolower(substr(r, RLENGTH + 1))
	m["bit"] = 1; m["kbit"] = 1e3; m["mbit"] = 1e6; m["gbit"] = 1e9
	if (!(u in m)) exit 1
	printf "%.0f", n * m[u] }') ||
	{ echo "planes-tbf: --rate takes NUMBER{bit,kbit,mbit,gbit}, not '$rate'" >&2; exit 2; }
rate_Bms=$((rate_bps / 8000))	# bytes per ms at the rate, for RED's thresholds
[ "$rate_Bms" -ge 400 ] || { echo "planes-tbf: --rate must be at least 3200kbit" >&2; exit 2; }
# RED's thresholds (shape()): 3 and 12 ms at the rate, but never below 2
# and 8 full packets.
red_pkt=$((mtu > 4200 ? 4200 : mtu))
red_min=$((rate_Bms * 3 > 2 * red_pkt ? rate_Bms * 3 : 2 * red_pkt))
red_max=$((rate_Bms * 12 > 4 * red_min ? rate_Bms * 12 : 4 * red_min))

# The host side: one guest for the whole run (MRC_VM=1 inside).
bench_in_vm planes-tbf.sh "$budget" "${orig_args[@]}"
bench_need planes-tbf ib_write_bw rdma tc ss stdbuf sysctl

# The fabric helpers; their TAP header and check lines are not wanted here.
# shellcheck source=../../selftests/mrc/lib.sh
. "$repo/selftests/mrc/lib.sh" >/dev/null
# shellcheck source=../../selftests/mrc/lib_fabric.sh
. "$repo/selftests/mrc/lib_fabric.sh"

bench_start planes-tbf

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local d
	bench_kill_pids
	for d in rxe0 rxe1; do
		[ -e "/sys/class/infiniband/$d" ] && rdma link del "$d" 2>/dev/null
	done
	veth_down
	_mrc_cleanup
	rm -rf "$work"
}

declare -A result	# result[KEY] = number or FAILED
declare -A note

# shape NS DEV AQM [NETEM...]: DEV's egress becomes a bottleneck of the
# rate: tbf, its queue 50 ms at the rate at most.  AQM "red": the queue is
# managed as a switch port of an MRC fabric is (WRED with ECN): packets
# that are ECN-capable (ECT, as mrc sends them) are marked from 3 ms of
# queue on and all of them from 12 ms; without marks a delay-based sender
# learns of the queue only from tail drops, and mrc takes a loss for a
# failing path.  (Never fewer than 2 packets to the first mark.)  AQM "tail": a plain drop-tail queue, for rxe (no ECT, no
# congestion control: RED would drop its packets early, a drop-tail queue
# is its best case).  With NETEM words (loss), netem is the root and the
# tbf its child: the loss happens before the bottleneck.
shape() {
	local ns=$1 dev=$2 aqm=$3 tbf=1: parent=root
	shift 3
	ns_exec "$ns" tc qdisc del dev "$dev" root 2>/dev/null
	if [ $# -gt 0 ]; then
		ns_exec "$ns" tc qdisc add dev "$dev" root handle 1: netem "$@" || return 1
		tbf=10: parent="parent 1:1"
	fi
	# shellcheck disable=SC2086 # parent is one or two words
	ns_exec "$ns" tc qdisc add dev "$dev" $parent handle "$tbf" tbf rate "$rate" \
		burst 32kb latency 50ms || return 1
	[ "$aqm" = red ] || return 0
	ns_exec "$ns" tc qdisc add dev "$dev" parent "${tbf%:}:1" handle 20: red \
		limit $((rate_Bms * 50 > 2 * red_max ? rate_Bms * 50 : 2 * red_max)) \
		min "$red_min" max "$red_max" avpkt "$red_pkt" \
		burst $(((2 * red_min + red_max) / (3 * red_pkt) + 1)) \
		probability 0.25 bandwidth "$rate" ecn
}

# --- rdma_rxe on one plane, initial namespace ------------------------------
# The pair a (10.0.0.1) / b (10.0.0.2) of lib_veth_pair.sh, at MTU 1500:
# rxe's writes at a 4096-byte path MTU over a tbf fail (status 9,
# IBV_WC_REM_INV_REQ_ERR, in 2 of 2 runs), at 1024 they run.
# shellcheck source=tools/bench/lib_veth_pair.sh
. "$here/lib_veth_pair.sh"

tcp_port=18600

# bw_start KEY SNS SDEV SGID CNS CDEV CGID SADDR: ib_write_bw server and
# client in the background, the client printing a result row every 2 s
# (--run_infinitely -D 2) until bw_finish stops it.  The throughput is
# computed here from the rows' write counts (writes x size / 2 s), not
# read from perftest's MB/s column: that one comes from a CPU-clock
# calibration that fails now and then under TCG ("Correlation coefficient
# r^2 < 0.9", then "0.00"), and fixed-time runs (-D S) were seen to end
# after half their time there.
bw_start() {
	local key=$1 sns=$2 sdev=$3 sgid=$4 cns=$5 cdev=$6 cgid=$7 saddr=$8
	tcp_port=$((tcp_port + 1))
	result[$key]=FAILED
	bw_key=$key
	bw_srv=$work/$key.server
	bw_cli=$work/$key.client
	local common=(-F -s "$size" -u "$qpt" -p "$tcp_port" --run_infinitely -D 2)
	ns_bg "$sns" timeout -k 5 600 stdbuf -oL ib_write_bw -d "$sdev" -x "$sgid" \
		"${common[@]}" >"$bw_srv" 2>&1 </dev/null
	bw_spid=$BG_PID
	pids+=("$bw_spid")
	if ! wait_listen "$sns" "$tcp_port" 60 >/dev/null; then
		say "FAILED: $key: server did not start: $(tail -n 3 "$bw_srv" | tr '\n' ' ')"
		bw_cpid=
		return 1
	fi
	ns_bg "$cns" timeout -k 5 600 stdbuf -oL ib_write_bw -d "$cdev" -x "$cgid" \
		"${common[@]}" "$saddr" >"$bw_cli" 2>&1 </dev/null
	bw_cpid=$BG_PID
	pids+=("$bw_cpid")
}

# bw_rows: the client's result rows so far.
bw_rows() {
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5' "$bw_cli" | wc -l
}

# bw_wait_rows N: until the client printed N rows (it runs), else fail.
bw_wait_rows() {
	local end=$((SECONDS + 2 * $1 + 60))
	while [ $SECONDS -lt $end ]; do
		[ "$(bw_rows)" -ge "$1" ] && return 0
		kill -0 "$bw_cpid" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}

# bw_finish [SKIP]: after $secs s of rows (the first SKIP rows, default
# 1, the start, left out), stop both ends; MB/s (10^6 bytes/s) into
# result[$bw_key], or FAILED with the reason.
bw_finish() {
	local skip=${1:-1} want val
	want=$((skip + secs / 2))
	[ "$want" -gt "$skip" ] || want=$((skip + 1))
	local ok=0
	[ -n "$bw_cpid" ] && bw_wait_rows "$want" && ok=1
	kill "$bw_cpid" "$bw_spid" 2>/dev/null
	wait "$bw_cpid" "$bw_spid" 2>/dev/null
	pids=("${pids[@]/$bw_cpid/}")
	pids=("${pids[@]/$bw_spid/}")
	if [ $ok = 1 ]; then
		val=$(awk -v skip="$skip" -v want="$want" -v size="$size" '
			$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 {
				n++
				if (n > skip && n <= want) { w += $2; r++ }
			}
			END { if (r) printf "%.2f", w * size / (r * 2) / 1e6 }' "$bw_cli")
	fi
	if [ $ok = 1 ] && [[ $val =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
		result[$bw_key]=$val
		say "  $bw_key: $val MB/s ($((want - skip)) rows of 2 s)"
		return 0
	fi
	say "FAILED: $bw_key: the client ended or printed no result rows; its output (last lines):"
	grep -Ev '^[[:space:]]*(-+)?[[:space:]]*$' "$bw_cli" | tail -n 8 | sed 's/^/    /'
	return 1
}

# bw KEY ...: bw_start then bw_finish.
bw() {
	bw_start "$@" && bw_finish
}

# rxe_bw KEY GID_A GID_B: bw on rxe1 -> rxe0, up to 3 tries: 6.1's rxe
# ends a run now and then with a failed write (status 9,
# IBV_WC_REM_INV_REQ_ERR, measured with and without loss, at MTU 1500 and
# 9000), which says nothing of its throughput.  note[KEY] counts the tries.
rxe_bw() {
	local key=$1 try
	for try in 1 2 3; do
		note[$key]=$try
		bw "$key" - rxe0 "$2" - rxe1 "$3" 10.0.0.1 && return 0
	done
	return 1
}

say "planes-tbf: $(uname -r), perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null || echo '?')," \
	"4 planes of $rate, MTU $mtu, ib_write_bw -s $size -u $qpt for $secs s, budget $budget s${MRC_VM:+, in tools/vm/run guest}"
bench_dmesg_mark planes-tbf

say "== rxe, one plane of $rate ($(elapsed))"
if [ -d /sys/module/mrc ]; then
	say "FAILED: rxe: mrc is loaded (it refuses to coexist with rdma_rxe); rmmod mrc first"
elif ! out=$(modprobe rdma_rxe 2>&1); then
	say "FAILED: rxe: modprobe rdma_rxe: $out"
elif ! veth_up 1500; then
	say "FAILED: rxe: cannot create the veth pair a/b"
elif ! out=$( { rdma link add rxe0 type rxe netdev a && rdma link add rxe1 type rxe netdev b; } 2>&1); then
	say "FAILED: rxe: rdma link add: $out"
elif ! ga=$(gid_index rxe0 10.0.0.1) || ! gb=$(gid_index rxe1 10.0.0.2); then
	say "FAILED: rxe: no IPv4 GID on rxe0/rxe1"
else
	shape - a tail && shape - b tail && rxe_bw rxe_1 "$ga" "$gb"
	say "== rxe, one plane of $rate, 1% loss ($(elapsed))"
	shape - a tail loss 1% && shape - b tail loss 1% && rxe_bw rxe_1_loss "$ga" "$gb"
fi
# The qdiscs go first, and their queues with them, while rxe is still
# there: a guest panicked once (a call to 0xffffffffffffffff from
# validate_xmit_skb in net_tx_action) when rxe's devices and module went
# with its packets still in netem's queue.
tc qdisc del dev a root 2>/dev/null
tc qdisc del dev b root 2>/dev/null
sleep 0.5
for d in rxe0 rxe1; do
	[ -e "/sys/class/infiniband/$d" ] && rdma link del "$d"
done
veth_down
[ -d /sys/module/rdma_rxe ] && ! out=$(rmmod rdma_rxe 2>&1) &&
	say "planes-tbf: rmmod rdma_rxe failed ($out): mrc cannot load"

# --- mrc on four planes ---------------------------------------------------------
# shape_planes [NETEM...]: every plane, both ends.
shape_planes() {
	local p h
	for p in 1 2 3 4; do
		for h in 1 2; do
			shape "h$h" "e$p" red "$@" || return 1
		done
	done
}

# set_mtu_planes: MTU $mtu on every plane, both ends (the RDMA path MTU
# follows the netdev's: the largest of 256..4096 the MTU holds).
set_mtu_planes() {
	local p h
	for p in 1 2 3 4; do
		for h in 1 2; do
			ns_exec "h$h" ip link set dev "e$p" mtu "$mtu" || return 1
		done
	done
}

# cc_profile: CC profile 1 on both hosts, NSCC's times set to this
# fabric's, as an operator sets them for a real one (the built-in profile
# assumes a datacenter: 100 us base RTT, 200 us target; here one full
# packet takes milliseconds on the wire):
#   base_rtt      the median RTT of the route's probes (small packets),
#                 plus one full packet's time at the rate
#   target_delay  the queue at which RED starts marking (shape())
#   qa_threshold  the queue from which RED marks everything
#   adjust_period one base RTT
# Prints the parameters.
cc_profile() {
	local probe_rtt ser h
	probe_rtt=$(ns_exec h2 "$MRCCTL" -j probe dev "$H2_DEV" to "$(fab_addr4 1 1)" |
		"$FAB_PY" -c 'import json, sys
r = sorted(p["rtt_ns"] for p in json.load(sys.stdin) if "rtt_ns" in p)
print(r[len(r) // 2] if r else "")') || return 1
	[ -n "$probe_rtt" ] || return 1
	ser=$((red_pkt * 1000000 / rate_Bms))	# ns
	cc_base=$((probe_rtt + ser))
	cc_target=$((red_min * 1000000 / rate_Bms))
	cc_qa=$((red_max * 1000000 / rate_Bms))
	for h in 1 2; do
		ns_exec "h$h" "$MRCCTL" cc-profile add dev "$(fab_dev $h)" id 1 \
			algo uet-1.0-nscc base-rtt "$cc_base" target-delay "$cc_target" \
			qa-threshold "$cc_qa" adjust-period "$cc_base" || return 1
	done
	say "  CC profile 1: base-rtt $((cc_base / 1000)) us (probes $((probe_rtt / 1000)) us)," \
		"target-delay $((cc_target / 1000)) us, qa-threshold $((cc_qa / 1000)) us"
}

# mbw KEY: ib_write_bw between the two instances; mbw_start KEY only
# starts it (see bw_start).
mbw_start() {
	bw_start "$1" h1 "$H1_DEV" "$FAB_GID" h2 "$H2_DEV" "$FAB_GID" "$(fab_addr4 1 1)"
}

mbw() {
	mbw_start "$1" && bw_finish
}

# Failover: the sampler reads the bytes h1's mrc instance received (its
# rx_bytes hardware counter: packets delivered to a QP; a packet dropped on
# the way, even by h1's own ingress filter, does not count) every 10 ms,
# runs the fault command at FAULT s and the repair at REPAIR s, and prints
# "fault T", "repair T" and "S BYTES" lines (times in seconds from its
# start).
SAMPLER_PY='
import subprocess, sys, time
dur, t_fault, t_rep = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
fault, repair, counter = sys.argv[4], sys.argv[5], sys.argv[6]
def rx():
    with open(counter) as f:
        return int(f.read())
t0 = time.monotonic()
out = []
procs = []
done_fault = done_rep = False
while True:
    t = time.monotonic() - t0
    if t >= dur:
        break
    # The commands run beside the sampling: a fork, a tc or a module load
    # take a noticeable time in a TCG guest, which must not count as a
    # pause of the transfer.  "fault T" is when the command started.
    if not done_fault and t >= t_fault:
        out.append("fault %.4f" % (time.monotonic() - t0))
        procs.append(subprocess.Popen(fault, shell=True))
        done_fault = True
    if not done_rep and t >= t_rep:
        procs[0].wait()		# a repair must not overtake its fault
        out.append("repair %.4f" % (time.monotonic() - t0))
        procs.append(subprocess.Popen(repair, shell=True))
        done_rep = True
    out.append("%.4f %d" % (time.monotonic() - t0, rx()))
    time.sleep(0.01)
for p in procs:
    if p.wait() != 0:
        out.append("command failed: exit %d" % p.returncode)
print("\n".join(out))
'

# failover KEY FAULT_CMD REPAIR_CMD: ib_write_bw with the route over four
# planes; once it reports, the sampler starts: the fault 2 s later, the
# repair $secs/2 s after the fault.  The longest pause between two samples
# that show progress (at least one full-size packet, 1000 bytes) from 0.5 s
# before the fault to the repair goes to result[KEY] (ms), the longest of
# the 2 s before the fault to note[KEY] (the harness's own jitter).
failover() {
	local key=$1 fault=$2 repair=$3 log=$work/$1.samples spl tf tr pause base
	result[$key]=FAILED
	tf=2
	tr=$((2 + secs / 2))
	if ! mbw_start "$key.bw" || ! bw_wait_rows 1; then
		bw_finish
		say "FAILED: $key: ib_write_bw did not start"
		return 1
	fi
	"$FAB_PY" -S -c "$SAMPLER_PY" $((tr + 2)) "$tf" "$tr" "$fault" "$repair" \
		"/sys/class/infiniband/$H1_DEV/ports/1/hw_counters/rx_bytes" >"$log" 2>&1 &
	spl=$!
	pids+=("$spl")
	wait "$spl"
	pids=("${pids[@]/$spl/}")
	bw_finish 1
	read -r pause base <<<"$(awk '
		$1 == "fault" { tf = $2; next }
		$1 == "repair" { tr = $2; next }
		$1 == "command" { bad = 1; next }
		NF == 2 { t[n] = $1; b[n] = $2; n++ }
		END {
			if (!tf || !tr || bad) { print "- -"; exit }
			last = -1
			for (i = 1; i < n; i++) {
				if (b[i] - b[i - 1] < 1000) continue
				if (last >= 0) {
					gap = t[i] - last
					if (last >= tf - 0.5 && last < tr && gap > worst) worst = gap
					if (last >= tf - 2 && t[i] <= tf && gap > base) base = gap
				}
				last = t[i]
			}
			printf "%.0f %.0f\n", worst * 1000, base * 1000
		}' "$log")"
	if [ "$pause" = - ] || [ "${result[$key.bw]}" = FAILED ]; then
		say "FAILED: $key: the transfer or the sampler failed: $(grep -v '^[0-9]' "$log" | head -n 5 | tr '\n' ' ')"
		return 1
	fi
	result[$key]=$pause
	note[$key]=$base
	say "  $key: longest pause $pause ms (before the fault: $base ms)"
}

say "== mrc, 4 planes of $rate ($(elapsed))"
mrc_ok=0
if ! mrc_load >"$work/load" 2>&1; then
	say "FAILED: mrc: cannot load $MRC_KO (run make): $(cat "$work/load")"
elif ! fabric_direct 4 >"$work/fabric" 2>&1; then
	say "FAILED: mrc: the 4-plane fabric: $(cat "$work/fabric")"
elif ! set_mtu_planes; then
	say "FAILED: mrc: MTU $mtu on the planes"
elif ! shape_planes; then
	say "FAILED: mrc: tbf on the planes"
else
	mrc_ok=1
	# A route for the probes of cc_profile; every route after it uses
	# CC profile 1 (FAB_ROUTE_OPTS, read by lib_fabric.sh).
	if out=$(fabric_routes 2>&1) && cc_profile && fabric_unroute &&
		FAB_ROUTE_OPTS+=(cc-profile 1) && out=$(fabric_routes 1 2>&1); then
		mbw mrc_1
	else
		say "FAILED: mrc: the CC profile or the route over plane 1: $out"
	fi
	if fabric_unroute && out=$(fabric_routes 2>&1); then
		mbw mrc_4
		say "== mrc, 4 planes of $rate, 1% loss on each ($(elapsed))"
		shape_planes loss 1% && mbw mrc_4_loss
		shape_planes
		say "== mrc, failover of plane 2 ($(elapsed))"
		failover fail_down "ip -n h1 link set e2 down" "ip -n h1 link set e2 up"
		# The silent failure: everything plane 2 brings to h1 dropped.
		# The clsact qdisc and the classifier's modules are there
		# before: the fault is one filter.
		if tc -n h1 qdisc add dev e2 clsact &&
			tc -n h1 filter add dev e2 ingress pref 1 matchall action pass &&
			tc -n h1 filter del dev e2 ingress pref 1; then
			failover fail_silent \
				"tc -n h1 filter add dev e2 ingress pref 1 matchall action drop" \
				"tc -n h1 filter del dev e2 ingress pref 1"
			tc -n h1 qdisc del dev e2 clsact
		else
			say "FAILED: fail_silent: cannot add a tc filter on h1's e2"
		fi
	else
		say "FAILED: mrc: route over the 4 planes: $out"
	fi
fi

# --- results ----------------------------------------------------------------------
val() { echo "${result[$1]:-FAILED}"; }
# ratio A B: A / B with two decimals, "-" when either is not a number.
ratio() {
	if [[ $1 =~ ^[0-9.]+$ && $2 =~ ^[0-9.]+$ ]]; then
		awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
	else
		echo "-"
	fi
}
four_r=$(awk -v r="$rate_bps" 'BEGIN { printf "%.2f", 4 * r / 8 / 1e6 }')	# MB/s
ack_ms=$(awk -v t="$qpt" 'BEGIN { printf "%.1f", 4.096e-3 * 2 ^ t }')
say ""
say "== results ($(elapsed) in all); MB/s = 10^6 bytes/s of written payload; 4R = 4 x $rate = $four_r MB/s"
printf '%-52s %8s  %s\n' metric value ratio
printf '%-52s %8s  %s\n' "mrc, route over 4 planes, MB/s" "$(val mrc_4)" \
	"$(ratio "$(val mrc_4)" "$four_r") of 4R"
printf '%-52s %8s  %s\n' "mrc, route over plane 1 only, MB/s" "$(val mrc_1)" \
	"$(ratio "$(val mrc_1)" "$four_r") of 4R"
printf '%-52s %8s  %s\n' "rxe, one plane, MB/s" "$(val rxe_1)" \
	"$(ratio "$(val rxe_1)" "$four_r") of 4R; tries: ${note[rxe_1]:--}"
printf '%-52s %8s  %s\n' "mrc, 4 planes, 1% loss each, MB/s" "$(val mrc_4_loss)" \
	"$(ratio "$(val mrc_4_loss)" "$(val mrc_4)") of lossless"
printf '%-52s %8s  %s\n' "rxe, one plane, 1% loss, MB/s" "$(val rxe_1_loss)" \
	"$(ratio "$(val rxe_1_loss)" "$(val rxe_1)") of lossless; tries: ${note[rxe_1_loss]:--}"
for k in fail_down fail_silent; do
	case $k in
	fail_down) what="plane 2 netdev down" ;;
	fail_silent) what="plane 2 silently dropped" ;;
	esac
	printf '%-52s %8s  %s\n' "failover, $what: longest pause, ms" "$(val $k)" \
		"$(ratio "$(val $k)" "$ack_ms") x ACK timeout ($ack_ms ms); before: ${note[$k]:--} ms"
done
bench_dmesg_report
[ "$mrc_ok" = 1 ] || say "mrc did not run (see above)"
say ""
bench_reproduce planes-tbf.sh "${orig_args[@]}"
# A benchmark, not a test: it succeeds when it ran to the end.
exit 0
