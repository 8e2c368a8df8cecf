# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The veth pair of the benchmarks that compare with rdma_rxe: 6.1's rxe
# works only in the initial network namespace, so both of its ends live
# there.  Sourced by verbs-vs-rxe.sh and planes-tbf.sh.
#
#   veth_up [MTU]   the pair a (10.0.0.1/24) / b (10.0.0.2/24), up
#   veth_down       undo veth_up (safe to call when it is not there)
#   gid_index DEV ADDR
#                   the index of DEV's IPv4-mapped GID of ADDR

# veth_up [MTU]: both addresses are local in the initial namespace, so by
# default 10.0.0.2 -> 10.0.0.1 is routed over "lo": rxe then fails to
# connect (measured: "Failed to modify QP to RTR") and a qdisc on a/b
# would see nothing.  Policy routing sends locally generated traffic
# between the two addresses out of the other veth end instead: rules
# looked up before the local table, for "iif lo" (output) only, so that
# the packet arriving on the far end is still delivered locally;
# accept_local lets a packet with a local source address in.
veth_up() {
	local mtu=${1:-1500} d
	veth_down
	ip link add name a type veth peer name b &&
		ip addr add 10.0.0.1/24 dev a &&
		ip addr add 10.0.0.2/24 dev b &&
		ip link set dev a mtu "$mtu" && ip link set dev b mtu "$mtu" &&
		ip link set dev a up && ip link set dev b up || return 1
	for d in a b; do
		sysctl -qw "net.ipv4.conf.$d.accept_local=1" "net.ipv4.conf.$d.rp_filter=0" || return 1
	done
	# rp_filter is the max of "all" and the device's value.
	sysctl -qw net.ipv4.conf.all.rp_filter=0 &&
		ip route add 10.0.0.1/32 dev b src 10.0.0.2 table 4791 &&
		ip route add 10.0.0.2/32 dev a src 10.0.0.1 table 4791 &&
		ip rule add pref 10 iif lo from 10.0.0.2 to 10.0.0.1 table 4791 &&
		ip rule add pref 11 iif lo from 10.0.0.1 to 10.0.0.2 table 4791 &&
		ip rule add pref 100 table local &&
		ip rule del pref 0 table local
}

# veth_down: the routes go with the devices; the rules are put back.
veth_down() {
	ip link del dev a 2>/dev/null
	if ! ip rule show pref 0 | grep -q local; then
		ip rule add pref 0 table local
		ip rule del pref 100 table local 2>/dev/null
	fi
	ip rule del pref 10 table 4791 2>/dev/null
	ip rule del pref 11 table 4791 2>/dev/null
	return 0
}

# gid_index DEV ADDR: sysfs spells the GID 0000:...:ffff:0a00:0001; waits
# (5 s at most) for the RDMA core's work queue to add it.
gid_index() {
	local dev=$1 want f o1 o2 o3 o4
	IFS=. read -r o1 o2 o3 o4 <<<"$2"
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$o1" "$o2" "$o3" "$o4")
	for _ in $(seq 50); do
		for f in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
			[ -r "$f" ] || continue
			if [ "$(cat "$f" 2>/dev/null)" = "$want" ]; then
				echo "${f##*/}"
				return 0
			fi
		done
		sleep 0.1
	done
	return 1
}
