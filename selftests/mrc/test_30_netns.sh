#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Network namespaces: an instance belongs to the namespace of its netdev;
# the genl family shows and changes only the caller's namespace's
# instances; planes cannot cross namespaces; deleting a namespace removes
# its instances.  (In the RDMA core's default "shared" netns mode the
# ib_devices themselves are visible everywhere; that is not ours to change.)
. "$(dirname "$0")/lib.sh"

# lists NS NAME: mrcctl in namespace NS succeeds and lists instance NAME.
lists() { ns_exec "$1" "$MRCCTL" -j dev show | grep -q "\"name\":\"$2\""; }
# hides NS NAME: mrcctl in namespace NS succeeds and does not list NAME.
hides() {
	local out
	out=$(ns_exec "$1" "$MRCCTL" -j dev show) || return 1
	! grep -q "\"name\":\"$2\"" <<<"$out"
}

require_cmd rdma ibv_devinfo "$MRCCTL"
mrc_load || { done_testing; }
ns_create h1
ns_create h2
# Each namespace's netdevs are paired inside it, so deleting h1 takes no
# netdev of h2 with it (a veth pair dies with either end).
veth_pair h1 a0 10.0.1.1/24 h1 a1 10.0.1.2/24
veth_pair h2 b0 10.0.2.1/24 h2 b1 10.0.2.2/24
veth_pair h1 c0 - h1 c1 -

check "rdma link add inside netns h1" \
	ns_exec h1 rdma link add mrcA type mrc netdev a0
check "rdma link add inside netns h2" \
	ns_exec h2 rdma link add mrcB type mrc netdev b0
check_output "h1's instance is ACTIVE" "state:[[:space:]]+PORT_ACTIVE" \
	ibv_devinfo -d mrcA
check_output "h1's instance has h1's address as GID" "::ffff:10\.0\.1\.1" \
	ibv_devinfo -v -d mrcA

check "h1 lists mrcA" lists h1 mrcA
check "h1 does not list mrcB" hides h1 mrcB
check "h2 lists mrcB" lists h2 mrcB
check "h2 does not list mrcA" hides h2 mrcA
check "the initial namespace lists neither (mrcA)" hides - mrcA
check "the initial namespace lists neither (mrcB)" hides - mrcB
check_output_fail "h2 cannot address h1's instance" "no such MRC device" \
	ns_exec h2 "$MRCCTL" plane add dev mrcA netdev b0
check_output_fail "a netdev of another namespace cannot become a plane" \
	"no netdev" ns_exec h1 "$MRCCTL" plane add dev mrcA netdev b0
check "h1 adds its own netdev c0 as a plane" \
	ns_exec h1 "$MRCCTL" plane add dev mrcA netdev c0
check_output "the plane is listed in h1" "netdev c0" \
	ns_exec h1 "$MRCCTL" plane show dev mrcA
check "moving c0 to h2" ip -n h1 link set c0 netns h2
check "the plane left with its netdev" \
	wait_no_output "netdev c0" ns_exec h1 "$MRCCTL" plane show dev mrcA
check "mrcA survives the loss of a plane" lists h1 mrcA

veth_pair h1 d0 - h1 d1 -
check "an instance on d0 in h1" ns_exec h1 rdma link add mrcD type mrc netdev d0
check "moving the instance's own netdev d0 to h2" ip -n h1 link set d0 netns h2
check "the instance goes with its netdev" \
	wait_no_output "^link mrcD/" rdma link show
check "h2 did not inherit it" hides h2 mrcD

check "deleting netns h1" ip netns del h1
check "deleting the namespace removes its instance" \
	wait_no_output "^link mrcA/" rdma link show
check "h2's instance is unaffected" lists h2 mrcB
check "rmmod" mrc_unload
check_fail "no instance left" sh -c 'rdma link show | grep -q mrcB'

done_testing
