#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "rdma link add ... type mrc": the ib_device, what the stock rxe provider
# shows of it (ibv_devices, ibv_devinfo), GIDs that follow the netdev's
# addresses, a port state that follows its carrier, and removal by
# "rdma link del" or by deleting the netdev.
. "$(dirname "$0")/lib.sh"

require_cmd rdma ibv_devinfo ibv_devices "$MRCCTL"
mrc_load || { done_testing; }
veth_pair - l0a 10.0.0.1/24 - l0b 10.0.0.2/24
veth_pair - l1a 10.0.1.1/24 - l1b 10.0.1.2/24

check "rdma link add mrc0 type mrc netdev l0a" \
	rdma link add mrc0 type mrc netdev l0a
check_output "rdma link show lists mrc0 on l0a" \
	"^link mrc0/1 state ACTIVE physical_state LINK_UP netdev l0a" rdma link show
check_output "ibv_devices lists mrc0" "^[[:space:]]+mrc0[[:space:]]" ibv_devices
check_output "ibv_devinfo: port 1 is PORT_ACTIVE" "state:[[:space:]]+PORT_ACTIVE" \
	ibv_devinfo -d mrc0
check_output "ibv_devinfo: link layer Ethernet" "link_layer:[[:space:]]+Ethernet" \
	ibv_devinfo -d mrc0
check_output "ibv_devinfo: one port" "phys_port_cnt:[[:space:]]+1$" \
	ibv_devinfo -d mrc0
check_output "active MTU follows the netdev MTU (1500 -> 1024)" \
	"active_mtu:[[:space:]]+1024" ibv_devinfo -d mrc0
check "GID: IPv4-mapped address of l0a (::ffff:10.0.0.1), RoCE v2" \
	wait_output "GID\[ *[0-9]+\]:[[:space:]]+::ffff:10\.0\.0\.1, RoCE v2" \
	ibv_devinfo -v -d mrc0
check "GID: IPv6 link-local address of l0a" \
	wait_output "GID\[ *[0-9]+\]:[[:space:]]+fe80:" ibv_devinfo -v -d mrc0
check "ip addr add 2001:db8::1/64 dev l0a" \
	ip addr add 2001:db8::1/64 dev l0a nodad
check "GID follows a new IPv6 address" \
	wait_output "GID\[ *[0-9]+\]:[[:space:]]+2001:db8::1, RoCE v2" \
	ibv_devinfo -v -d mrc0
check "ip addr del 10.0.0.1/24 dev l0a" ip addr del 10.0.0.1/24 dev l0a
check "GID of a removed address goes away" \
	wait_no_output "::ffff:10\.0\.0\.1" ibv_devinfo -v -d mrc0
ip addr add 10.0.0.1/24 dev l0a

# The limits query_device reports are the ones the verbs enforce.
check_output "ibv_devinfo -v: max_qp 1024" "max_qp:[[:space:]]+1024$" \
	ibv_devinfo -v -d mrc0
check_output "ibv_devinfo -v: max_qp_wr 4096" "max_qp_wr:[[:space:]]+4096$" \
	ibv_devinfo -v -d mrc0
check_output "ibv_devinfo -v: atomics (ATOMIC_HCA)" \
	"atomic_cap:[[:space:]]+ATOMIC_HCA" ibv_devinfo -v -d mrc0
check_output "ibv_devinfo -v: max_qp_rd_atom 16" \
	"max_qp_rd_atom:[[:space:]]+16$" ibv_devinfo -v -d mrc0

# Port state follows the carrier.
check "peer down: ip link set l0b down" ip link set l0b down
check "port 1 goes PORT_DOWN on carrier loss" \
	wait_output "state:[[:space:]]+PORT_DOWN" ibv_devinfo -d mrc0
check "peer up: ip link set l0b up" ip link set l0b up
check "port 1 returns to PORT_ACTIVE" \
	wait_output "state:[[:space:]]+PORT_ACTIVE" ibv_devinfo -d mrc0
check "own netdev down: ip link set l0a down" ip link set l0a down
check "port 1 goes PORT_DOWN when the netdev is down" \
	wait_output "state:[[:space:]]+PORT_DOWN" ibv_devinfo -d mrc0
check "ip link set l0a up" ip link set l0a up
check "port 1 is PORT_ACTIVE again" \
	wait_output "state:[[:space:]]+PORT_ACTIVE" ibv_devinfo -d mrc0

# One instance per netdev; only Ethernet netdevs.
check_fail "a second instance on the same netdev is refused" \
	rdma link add mrc1 type mrc netdev l0a
check_fail "an instance on loopback is refused" \
	rdma link add mrc1 type mrc netdev lo
check_fail "an instance with a taken name is refused" \
	rdma link add mrc0 type mrc netdev l1a
check "a second instance on another netdev" \
	rdma link add mrc1 type mrc netdev l1a
check_output "ibv_devices lists both" "mrc1" ibv_devices
check_output "mrcctl dev show lists both" "mrc1" "$MRCCTL" dev show

# Removal.
check "rdma link del mrc0" rdma link del mrc0
check "mrc0 is gone from rdma link show" \
	wait_no_output "^link mrc0/" rdma link show
check_fail "ibv_devinfo -d mrc0 fails" ibv_devinfo -d mrc0
check "l0a can host an instance again" rdma link add mrc0 type mrc netdev l0a
check "deleting the netdev: ip link del l1a" ip link del l1a
check "deleting the netdev removes its instance" \
	wait_no_output "^link mrc1/" rdma link show
check_fail "mrcctl no longer lists mrc1" sh -c "'$MRCCTL' dev show | grep -q mrc1"
check_output "the other instance is unaffected" "^link mrc0/1 state ACTIVE" \
	rdma link show
check "rdma link del mrc0" rdma link del mrc0
check "rmmod" mrc_unload

done_testing
