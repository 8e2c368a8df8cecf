#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The module itself: repeated load/unload, rmmod with instances present,
# and the refusal to run together with rdma_rxe, in both orders.
. "$(dirname "$0")/lib.sh"

# Kernel log lines written since dmesg_mark.
dmesg_mark() { _dmesg_lines=$(dmesg | wc -l); }
dmesg_new() { dmesg | tail -n +$((_dmesg_lines + 1)); }

require_cmd rdma ibv_devinfo "$MRCCTL"
require_module
mrc_unload
modprobe -r rdma_rxe 2>/dev/null

# --- load/unload ---------------------------------------------------------
# MRC_MODULE_CYCLES: how many (default 20; the sanitizer lane, where one
# load takes seconds, runs fewer).
cycles=${MRC_MODULE_CYCLES:-20}
fails=0
for _ in $(seq "$cycles"); do
	mrc_load >/dev/null || fails=$((fails + 1))
	[ -d /sys/module/mrc ] || fails=$((fails + 1))
	mrc_unload || fails=$((fails + 1))
	[ ! -d /sys/module/mrc ] || fails=$((fails + 1))
done
check "load and unload $cycles times" test "$fails" -eq 0

mrc_load
check_output "module parameter udp_port defaults to 4791" "^4791$" \
	cat /sys/module/mrc/parameters/udp_port
check "genl family mrc is registered" "$MRCCTL" dev show

# --- rmmod with instances present ---------------------------------------
veth_pair - m0a 10.0.10.1/24 - m0b 10.0.10.2/24
veth_pair - m1a 10.0.11.1/24 - m1b 10.0.11.2/24
check "instance mrc_m0 created" rdma link add mrc_m0 type mrc netdev m0a
check "instance mrc_m1 created" rdma link add mrc_m1 type mrc netdev m1a
check_output "both instances listed" "mrc_m1" rdma link show
check "rmmod with two instances present" mrc_unload
check_fail "no instance survives rmmod" sh -c 'rdma link show | grep -q mrc_m'
check "the netdevs survive rmmod" ip link show m0a
check "reload after rmmod with instances" mrc_load
check "the netdev can be used again after reload" \
	rdma link add mrc_m0 type mrc netdev m0a
check_output "reloaded instance is ACTIVE" "mrc_m0/1 state ACTIVE" rdma link show
check "rdma link del" rdma link del mrc_m0

# refused_while_loaded LOADED OTHER WHAT CMD...: with module LOADED in,
# loading OTHER by CMD... (described as WHAT) fails, OTHER stays out and
# the kernel says why.
refused_while_loaded() {
	local loaded=$1 other=$2 what=$3
	shift 3
	dmesg_mark
	check_fail "$what refused while $loaded is loaded" "$@"
	check_fail "$other is not loaded" test -d "/sys/module/$other"
	check_output "kernel says why $other was refused" \
		"mrc: $loaded is loaded; mrc and rdma_rxe .*cannot run together: rmmod $loaded first" \
		dmesg_new
}

# --- rdma_rxe while mrc is loaded -----------------------------------------
if ! modinfo rdma_rxe >/dev/null 2>&1; then
	skip "rdma_rxe conflict checks" "no rdma_rxe module in this kernel"
	mrc_unload
	done_testing
fi

refused_while_loaded mrc rdma_rxe "modprobe rdma_rxe" modprobe rdma_rxe
check "mrc still works after refusing rdma_rxe" \
	rdma link add mrc_m1 type mrc netdev m1a
check_output "its port is ACTIVE" "PORT_ACTIVE" ibv_devinfo -d mrc_m1
check "mrc unloads after refusing rdma_rxe" mrc_unload
check_fail "the instance went with it" sh -c 'rdma link show | grep -q mrc_m1'

# --- mrc while rdma_rxe is loaded -----------------------------------------
check "rdma_rxe loads once mrc is gone" modprobe rdma_rxe
refused_while_loaded rdma_rxe mrc "insmod mrc" insmod "$MRC_KO"
check "rdma_rxe still works after refusing mrc" \
	rdma link add rxe_m0 type rxe netdev m0a
check_output "rxe device is usable" "PORT_ACTIVE" ibv_devinfo -d rxe_m0
check "rdma link del of the rxe device" rdma link del rxe_m0
check "rmmod rdma_rxe" modprobe -r rdma_rxe
check "mrc loads again after rdma_rxe is gone" mrc_load
check "and creates instances" rdma link add mrc_m0 type mrc netdev m0a
check "final rmmod" mrc_unload
check "no instance left behind" wait_no_output "^link mrc_m0/" rdma link show

done_testing
