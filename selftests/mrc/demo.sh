#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The MRC demo, narrated: two hosts joined by two independent network
# planes, each plane a small leaf-spine fabric of Linux routers (two
# spines, ECMP); an mrc RDMA device per host spraying one verified
# transfer over both planes and all four spines; a spine link cut in the
# middle of the transfer, the paths through it retired and probed back;
# a whole plane going down and up; the transfer completing with every byte
# checked.  Runs as root where mrc.ko can be loaded (tools/demo.sh boots
# the VM for it).  Any failed step stops the demo with a non-zero status.
set -u

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The selftests' helpers build the fabric; their TAP header is not ours.
. "$dir/lib.sh" >/dev/null
. "$dir/lib_fabric.sh"

step_no=0
step() {
	step_no=$((step_no + 1))
	echo
	echo "== step $step_no: $*"
}

# show CMD...: a command as a reader would type it, in the host it runs in.
show() {
	local line='' a
	for a in "$@"; do
		[ "$a" = "$MRCCTL" ] && a=mrcctl
		[[ $a =~ [[:space:]\|\'] ]] && a="\"$a\""
		line+=" $a"
	done
	echo "#$line"
}

die() {
	echo "demo: FAILED: $*" >&2
	exit 1
}

# run CMD...: show the command, run it, stop the demo if it fails.
run() {
	show "$@"
	"$@" || die "exit status $?: $*"
}

events=$(mktemp "${TMPDIR:-/tmp}/mrc-demo-events.XXXXXX")
# wait_event REGEX [SECONDS]: the monitor printed a matching line.
wait_event() {
	wait_for "${2:-20}" grep -Eq -- "$1" "$events" ||
		die "no event matching /$1/ (events: $(wc -l <"$events"))"
}

# spine_bytes: "PLANE SPINE BYTES" for every spine: bytes it forwarded
# toward h1 and h2 (tx on its leaf links), read from the routers.
spine_bytes() {
	fab_snapshot "$1"
}

spread_table() {
	local old=$1 new=$2 p s b tot=0 line
	declare -A by
	for p in 1 2; do
		for s in 1 2; do
			b=$(($(fab_delta "$old" "$new" "p${p}s$s" l1 tx_bytes) +
			     $(fab_delta "$old" "$new" "p${p}s$s" l2 tx_bytes)))
			by[$p$s]=$b
			tot=$((tot + b))
		done
	done
	[ "$tot" -gt 0 ] || die "the spines forwarded nothing"
	for p in 1 2; do
		line="    plane $p:"
		for s in 1 2; do
			line+=$(awk -v s="$s" -v b="${by[$p$s]}" -v t="$tot" \
				'BEGIN { printf "  spine %d %6.1f MB (%4.1f%%)", s, b / 1e6, 100 * b / t }')
		done
		echo "$line"
	done
}

[ "$(id -u)" -eq 0 ] || die "run as root (or: tools/vm/run -- $0)"
[ -x "$MRCCTL" ] || die "no mrcctl at $MRCCTL (make userspace)"

echo "MRC demo: 2 hosts, 2 network planes, each a leaf-spine fabric with 2 spines"

step "load the mrc module"
mrc_load >/dev/null || die "cannot load $MRC_KO"
run sh -c 'dmesg | grep -i "mrc" | tail -n 2'

step "build the fabric: per plane, a leaf router in front of each host and two spines"
echo "   (network namespaces h1 and h2, routers p<plane>l<leaf> and p<plane>s<spine>;"
echo "    the leaves spread traffic over the spines by ECMP with L4 hashing)"
fabric_leafspine 2 2 || die "fabric_leafspine 2 2"
run ip -n p1l1 route show 10.1.2.0/24
run ip netns exec h1 rdma link show

step "a route on each host: the peer is reached over both planes"
fabric_routes || die "fabric_routes"
run ip netns exec h1 "$MRCCTL" route show
run ip netns exec h2 "$MRCCTL" route show

step "h2's EVs: 8 UDP source ports per spine, picked with the leaves' own ECMP hash"
echo "   (an explicit EV profile; the route's default, 16 automatic EVs per plane,"
echo "    splits over the spines as the routers' random hash key decides)"
read -ra ev_words <<<"$(fab_balanced_evs 8)" || die "fab_balanced_evs 8"
[ ${#ev_words[@]} -eq 160 ] || die "fab_balanced_evs 8: ${#ev_words[@]} words"
show ip netns exec h2 "$MRCCTL" ev-profile add dev mrc2 id 1 mode exp format udp \
	"${ev_words[@]:0:10}" "... (32 EVs)"
ns_exec h2 "$MRCCTL" ev-profile add dev mrc2 id 1 mode exp format udp \
	"${ev_words[@]}" || die "ev-profile add"
# A new profile is INIT; it is validated on its way to ONLINE.
run ip netns exec h2 "$MRCCTL" ev-profile set dev mrc2 id 1 state offline
run ip netns exec h2 "$MRCCTL" ev-profile set dev mrc2 id 1 state online
run ip netns exec h2 "$MRCCTL" route del 10.1.1.1 dev mrc2
run ip netns exec h2 "$MRCCTL" route add 10.1.1.1 dev mrc2 plane 1 via 10.1.1.1 \
	plane 2 via 10.2.1.1 ev-profile 1
run sh -c "ip netns exec h2 $MRCCTL ev show dev mrc2 profile 1 | head -n 3"

step "'mrcctl monitor' in h2 prints path (EV) and plane events"
show ip netns exec h2 "$MRCCTL" monitor "&"
ns_bg h2 "$MRCCTL" monitor >"$events" 2>&1
sleep 1

step "probe every path to the peer: 16 EVs per plane, each hashed to a spine"
show ip netns exec h2 "$MRCCTL" probe dev mrc2 to 10.1.1.1 "|" head -n 4
ns_exec h2 "$MRCCTL" probe dev mrc2 to 10.1.1.1 >"$events.probe" ||
	die "no path answered"
head -n 4 "$events.probe"
echo "    ... $(grep -c ' rtt ' "$events.probe") of $(wc -l <"$events.probe") paths answered"

step "start a verified RDMA transfer (SEND, WRITE, READ, atomics; every byte checked)"
show ip netns exec h1 mrc_verify -d mrc1 -g 1 "&"
show ip netns exec h2 mrc_verify -d mrc2 -g 1 --until-stopped --min-size=256K 10.1.1.1 "&"
VERBS_TIMEOUT=600 fab_verify_start --until-stopped --count=200 --min-size=256K --max-size=1M ||
	die "mrc_verify did not start"
sleep 2

step "the traffic is sprayed over both planes and all four spines (router counters, 5 s)"
spine_bytes "$events.s0"
sleep 5
spine_bytes "$events.s1"
spread_table "$events.s0" "$events.s1"
run sh -c "ip netns exec h2 $MRCCTL -s conn show dev mrc2 | head -n 5"

step "cut the link between plane 1's leaf (in front of h1) and spine 1, mid-transfer"
run ip -n p1l1 link set s1 down
wait_event 'good -> assumed_bad' 30
sleep 3
echo "   the EVs that hashed through the cut link were retired:"
grep -E 'good -> assumed_bad' "$events" | head -n 4 | sed 's/^/    [monitor] /'
echo "    [monitor] ... $(grep -c 'good -> assumed_bad' "$events") EVs turned assumed_bad"
run sh -c "ip netns exec h2 $MRCCTL conn show dev mrc2 | head -n 1"
fab_verify_running || die "the transfer stopped"
echo "   the transfer goes on over the other paths"

step "repair the link: probes bring the retired EVs back"
run ip -n p1l1 link set s1 up
wait_event 'assumed_bad -> good reason probe_ok' 60
sleep 2
grep -E 'assumed_bad -> good' "$events" | head -n 2 | sed 's/^/    [monitor] /'
echo "    [monitor] ... $(grep -c 'assumed_bad -> good' "$events") EVs back to good"

step "take plane 2 down at h2 (its netdev), then up again"
run ip -n h2 link set e2 down
wait_event '^plane down dev mrc2 id 2'
sleep 3
run ip -n h2 link set e2 up
wait_event '^plane up dev mrc2 id 2'
grep -E '^plane (down|up)' "$events" | sed 's/^/    [monitor] /'
run sh -c "ip netns exec h2 $MRCCTL -s conn show dev mrc2 | sed -n '3,4p'"

step "stop the transfer (SIGINT: it ends after the batch in flight): zero failed completions, zero corrupted bytes"
fab_verify_stop
wait "$_fab_vf_cpid" || die "mrc_verify client failed: $(tail -n 3 "$_fab_vf_clog")"
tail -n 2 "$_fab_vf_clog" | sed 's/^/    /'
grep -Eq -- "$VERIFY_CLEAN_RE" "$_fab_vf_clog" || die "mrc_verify found errors"
wait "$_fab_vf_spid" 2>/dev/null

echo
echo "demo: OK: $(grep -c 'good -> assumed_bad' "$events") paths retired after the link cut and brought back by probes, plane 2 down and up, the transfer verified"
rm -f "$events" "$events".*
