#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 900
#
# Planes through mrcctl: add (with and without an id), show (text, -j, -p),
# set down/up, carrier changes of a plane's netdev, del, dev show, removal
# of a plane's netdev, and that an instance lives in its own namespace.
# Everything runs in namespace mrc40a; the peers of its veths sit in
# mrc40b, so taking a peer down drops the carrier of a plane's netdev.
. "$(dirname "$0")/lib.sh"

A=mrc40a
B=mrc40b

# json_ok EXPR CMD...: CMD prints JSON; ok iff python's EXPR over it (as d)
# is true. The JSON is printed so that a failed check shows it.
json_ok() {
	local expr=$1 out
	shift
	out=$("$@") || return 1
	printf '%s\n' "$out"
	printf '%s' "$out" | python3 -S -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if eval("(" + sys.argv[1] + ")") else 1)' "$expr"
}

# wait_json EXPR CMD...: json_ok, retried for up to 5 s (carrier changes
# reach the module through linkwatch, which may delay them).
wait_json() {
	local i
	for i in $(seq 50); do
		json_ok "$@" >/dev/null 2>&1 && break
		sleep 0.1
	done
	json_ok "$@"
}

# The planes of mrc0 as {id: plane} in python: P(d).
P='{p["id"]: p for p in d}'

require_cmd python3
mrc_ctl_setup 4 10.40

check "rdma link add mrc0 in a namespace" N rdma link add mrc0 type mrc netdev p1

# --- plane 1 -----------------------------------------------------------
check_output "plane show lists plane 1" \
	'^dev mrc0 id 1 netdev p1 ifindex [0-9]+ admin up oper up$' M plane show
p1_ifindex=$(N cat /sys/class/net/p1/ifindex)
check "-j plane show: plane 1 with its netdev, ifindex and states" \
	json_ok "len(d) == 1 and d[0] == {'dev': 'mrc0', 'dev_index': d[0]['dev_index'],
		'id': 1, 'netdev': 'p1', 'ifindex': $p1_ifindex,
		'admin_state': 'up', 'oper_state': 'up'}" M -j plane show
check_output "-p prints indented JSON" '^    "netdev": "p1",$' M -p plane show
check "-p output is the same data as -j" \
	json_ok "d[0]['id'] == 1 and d[0]['netdev'] == 'p1'" M -p plane show

# --- add -----------------------------------------------------------------
check "plane add without id" M plane add dev mrc0 netdev p2
check_output "... gets the lowest free id (2)" '^dev mrc0 id 2 netdev p2 ' \
	M plane show dev mrc0
check "plane add with id 4" M plane add dev mrc0 netdev p3 id 4
check "plane add without id after a gap" M plane add dev mrc0 netdev p4
check "-j plane show: ids 1-4 with the right netdevs" \
	json_ok "{p['id']: p['netdev'] for p in d} == {1: 'p1', 2: 'p2', 3: 'p4', 4: 'p3'}" \
	M -j plane show dev mrc0
check "-j plane show: every plane admin and oper up" \
	json_ok "all(p['admin_state'] == 'up' and p['oper_state'] == 'up' for p in d)" \
	M -j plane show
check_output "plane show dev mrc0 id 4 shows that one plane" \
	'^dev mrc0 id 4 netdev p3 ifindex [0-9]+ admin up oper up$' \
	M plane show dev mrc0 id 4
check "-j plane show dev mrc0 id 4 is an array of one" \
	json_ok "len(d) == 1 and d[0]['id'] == 4" M -j plane show dev mrc0 id 4
check "-n NETNS shows what ip netns exec shows" \
	sh -c '[ "$("$1" -n "$2" -j plane show)" = "$(ip netns exec "$2" "$1" -j plane show)" ]' \
	- "$MRCCTL" "$A"
check_output "-n of a namespace that does not exist: exit 1" \
	'^mrcctl: cannot open network namespace "nosuch"' \
	sh -c '"$1" -n nosuch plane show; [ $? -eq 1 ]' - "$MRCCTL"
check "abbreviated keywords work (pl sh d mrc0 i 3)" \
	json_ok "len(d) == 1 and d[0]['netdev'] == 'p4'" M -j pl sh d mrc0 i 3

# --- set down / up --------------------------------------------------------
check "plane set id 2 down" M plane set dev mrc0 id 2 down
check "... admin and oper down, the others untouched" \
	json_ok "($P)[2]['admin_state'] == 'down' and ($P)[2]['oper_state'] == 'down'
		and ($P)[1]['oper_state'] == 'up'" M -j plane show
check_output "... text shows admin down oper down" \
	'^dev mrc0 id 2 netdev p2 ifindex [0-9]+ admin down oper down$' M plane show
check "plane set id 2 up" M plane set dev mrc0 id 2 up
check "... admin and oper up again" \
	json_ok "($P)[2]['admin_state'] == 'up' and ($P)[2]['oper_state'] == 'up'" \
	M -j plane show

# --- carrier ---------------------------------------------------------------
check "carrier of p3 dropped (peer q3 down)" ns_exec "$B" ip link set q3 down
check "... plane 4 oper down, admin still up" \
	wait_json "($P)[4]['oper_state'] == 'down' and ($P)[4]['admin_state'] == 'up'" \
	M -j plane show
check "plane set id 4 down while without carrier" M plane set dev mrc0 id 4 down
check "carrier of p3 back (peer q3 up)" ns_exec "$B" ip link set q3 up
sleep 1
check "... plane 4 stays oper down while admin down" \
	json_ok "($P)[4]['oper_state'] == 'down' and ($P)[4]['admin_state'] == 'down'" \
	M -j plane show
check "plane set id 4 up" M plane set dev mrc0 id 4 up
check "... plane 4 oper up with carrier and admin up" \
	wait_json "($P)[4]['oper_state'] == 'up'" M -j plane show
check "plane's own netdev set down (ip link set p4 down)" N ip link set p4 down
check "... plane 3 oper down" wait_json "($P)[3]['oper_state'] == 'down'" M -j plane show
check "netdev p4 up again" N ip link set p4 up
check "... plane 3 oper up" wait_json "($P)[3]['oper_state'] == 'up'" M -j plane show

# --- dev show ----------------------------------------------------------------
check_output "dev show: header line of mrc0 with 4 planes" \
	'^mrc0: index [0-9]+ caps [a-z_,]+ max_planes 16 udp_port 4791 planes 4 \(4 up\)$' \
	M dev show
check_output "dev show: one indented line per plane" \
	'^    plane id 4 netdev p3 ifindex [0-9]+ admin up oper up$' M dev show
check "-j dev show: instance fields and its planes" \
	json_ok "len(d) == 1 and d[0]['name'] == 'mrc0' and d[0]['max_planes'] == 16
		and d[0]['udp_port'] == 4791 and isinstance(d[0]['caps'], list)
		and isinstance(d[0]['index'], int)
		and [p['id'] for p in d[0]['planes']] == [1, 2, 3, 4]
		and d[0]['planes'][0]['netdev'] == 'p1'" M -j dev show
check "-j dev show dev mrc0 (one instance)" \
	json_ok "len(d) == 1 and d[0]['name'] == 'mrc0'" M -j dev show dev mrc0
check "instance of another namespace is not listed" \
	json_ok "all(x['name'] != 'mrc0' for x in d)" "$MRCCTL" -j dev show
check "planes of another namespace are not listed" \
	json_ok "all(p['dev'] != 'mrc0' for p in d)" "$MRCCTL" -j plane show

# --- del ---------------------------------------------------------------------
check "plane del id 2" M plane del dev mrc0 id 2
check "... plane 2 gone, the others stay" \
	json_ok "sorted(p['id'] for p in d) == [1, 3, 4]" M -j plane show
check "... netdev p2 is free again: plane add with id 7" \
	M pl a d mrc0 n p2 i 7
check "... plane 7 is p2" json_ok "($P)[7]['netdev'] == 'p2'" M -j plane show

# --- a plane's netdev goes away ----------------------------------------------
check "ip link del p4 (plane 3's netdev)" N ip link del p4
check "... plane 3 removed with it" \
	wait_json "sorted(p['id'] for p in d) == [1, 4, 7]" M -j plane show
check_output "dev show counts 3 planes" 'planes 3 ' M dev show

# --- the instance goes away ----------------------------------------------------
check "rdma link del mrc0" N rdma link del mrc0
check_output "plane show prints nothing" '^$' M plane show
check "-j plane show prints an empty array" json_ok "d == []" M -j plane show
check "-j dev show prints an empty array" json_ok "d == []" M -j dev show

mrc_unload
done_testing
