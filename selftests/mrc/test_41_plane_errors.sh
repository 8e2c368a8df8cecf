#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 900
#
# Every bad plane request is refused with its errno and the kernel's extack
# message, and leaves nothing changed: missing and malformed attributes,
# unknown instance or netdev, a netdev that already is a plane (of the same
# or another instance), a netdev of another namespace, ids out of range or
# taken, a 17th plane, deleting plane 1 while others exist, unknown plane
# ids, unprivileged callers. Requests that mrcctl itself refuses exit 2.
#
# mrcctl never sends a request without its required attributes, so those
# cases go through genl_raw, the spec-driven client mrc_genl.py.
. "$(dirname "$0")/lib.sh"

A=mrc41a
B=mrc41b

# genl_raw OP [ATTR=VALUE...]: send one request of operation OP of the
# family's spec (mrc_genl.py: attributes named, numbered and typed from
# Documentation/netlink/specs/mrc.yaml) with exactly the attributes given,
# print the kernel's answer as "ok" or "error ENAME (strerror): extack
# message" and exit 0 or 1 (mrc_genl.py's command line, through
# genl_py's one server).
genl_raw() { genl_py "$A" 'import mrc_genl; sys.exit(mrc_genl.main(sys.argv[1:]))' "$@"; }

# planes DEV: the plane ids of DEV, e.g. "1 2".
planes() {
	M -j plane show dev "$1" | python3 -S -c '
import json, sys
print(" ".join(str(p["id"]) for p in json.load(sys.stdin)))'
}

require_cmd python3
mrc_ctl_setup 4
for i in $(seq 5 18); do
	N ip link add e$i type veth peer name f$i || not_ok "veth e$i"
done

check "rdma link add mrc0 (plane 1 = p1)" N rdma link add mrc0 type mrc netdev p1
check "rdma link add mrc1 (plane 1 = p4)" N rdma link add mrc1 type mrc netdev p4
check "plane add p2 to mrc0 (id 2)" M plane add dev mrc0 netdev p2

# --- missing and malformed attributes (raw requests) --------------------------
check_output "raw client works: a valid plane get succeeds" '^ok$' \
	genl_raw plane-get dev-name=mrc0 id=1
check_output "add without netdev: EINVAL, missing netdev" \
	'^error EINVAL .*: missing netdev' exits 1 genl_raw plane-add dev-name=mrc0
check_output "add without instance: EINVAL, missing device" \
	'^error EINVAL .*: missing device' exits 1 genl_raw plane-add ifname=p3
check_output "del without plane id: EINVAL, missing plane id" \
	'^error EINVAL .*: missing plane id' exits 1 genl_raw plane-del dev-name=mrc0
check_output "set without admin state: EINVAL, missing admin state" \
	'^error EINVAL .*: missing admin state' \
	exits 1 genl_raw plane-set dev-name=mrc0 id=2
check_output "get without plane id: EINVAL, missing plane id" \
	'^error EINVAL .*: missing plane id' exits 1 genl_raw plane-get dev-name=mrc0
check_output "plane id of the wrong size: EINVAL, invalid length" \
	'^error EINVAL .*: .*length' \
	exits 1 genl_raw plane-del dev-name=mrc0 id:u8=2
check_output "output-only attribute in a request: EINVAL" \
	'^error EINVAL .*: .*(attribute|Unsupported)' \
	exits 1 genl_raw plane-set dev-name=mrc0 id=2 admin-up=1 oper-up=1
check_output "admin state 2: ERANGE" '^error ERANGE .*: .*range' \
	exits 1 genl_raw plane-set dev-name=mrc0 id=2 admin-up=2
check_output "netdev name longer than IFNAMSIZ: refused" '^error E[A-Z]+ .*: .+' \
	exits 1 genl_raw plane-add dev-name=mrc0 ifname=abcdefghijklmnopq
check_output "name and index of different netdevs: EINVAL" \
	'^error EINVAL .*: netdev name and index' \
	exits 1 genl_raw plane-add dev-name=mrc0 ifname=p3 \
	ifindex="$(N cat /sys/class/net/e5/ifindex)"

# --- unknown instance ---------------------------------------------------------
refused_each '^mrcctl: no such MRC device.* \(No such device\)$' \
	"plane add to unknown instance: ENODEV|plane add dev nosuch netdev p3" \
	"plane del on unknown instance: ENODEV|plane del dev nosuch id 2" \
	"plane set on unknown instance: ENODEV|plane set dev nosuch id 2 down" \
	"plane show of unknown instance: ENODEV|plane show dev nosuch" \
	"dev show of unknown instance: ENODEV|dev show dev nosuch"
check_output "instance of another namespace is unknown here: ENODEV" \
	'^mrcctl: no such MRC device in this network namespace \(No such device\)$' \
	exits 1 "$MRCCTL" plane add dev mrc0 netdev lo

# --- unknown, unsuitable, busy or foreign netdev --------------------------------
check_output "unknown netdev: ENODEV" \
	'^mrcctl: no netdev with this name.* \(No such device\)$' \
	exits 1 M plane add dev mrc0 netdev nosuch0
check_output "netdev of another namespace (q1 in $B): ENODEV" \
	'^mrcctl: no netdev with this name in this network namespace \(No such device\)$' \
	exits 1 M plane add dev mrc0 netdev q1
check_output "loopback is not an Ethernet device: EINVAL" \
	'^mrcctl: .*Ethernet.* \(Invalid argument\)$' \
	exits 1 M plane add dev mrc0 netdev lo
refused_each '^mrcctl: .*already a plane.* \(Device or resource busy\)$' \
	"netdev already plane 1 of the same instance: EBUSY|plane add dev mrc0 netdev p1" \
	"netdev already plane 2 of the same instance: EBUSY|plane add dev mrc0 netdev p2 id 5" \
	"netdev already a plane of another instance: EBUSY|plane add dev mrc1 netdev p2" \
	"another instance's plane 1: EBUSY|plane add dev mrc0 netdev p4"

# --- plane ids ------------------------------------------------------------------
refused_each '^mrcctl: .*out of range.* \(Numerical result out of range\)$' \
	"id 0: ERANGE|plane add dev mrc0 netdev p3 id 0" \
	"id 17: ERANGE|plane add dev mrc0 netdev p3 id 17" \
	"id 4294967295: ERANGE|plane add dev mrc0 netdev p3 id 4294967295"
check_output "id taken: EEXIST" '^mrcctl: .*already in use.* \(File exists\)$' \
	exits 1 M plane add dev mrc0 netdev p3 id 2
refused_each '^mrcctl: no such plane \(No such file or directory\)$' \
	"del of unknown plane id: ENOENT|plane del dev mrc0 id 9" \
	"set of unknown plane id: ENOENT|plane set dev mrc0 id 9 down" \
	"show of unknown plane id: ENOENT|plane show dev mrc0 id 9"
check_output "del of id 17: refused (ERANGE)" '^mrcctl: .*range.*\)$' \
	exits 1 M plane del dev mrc0 id 17
check_output "delete plane 1 while others exist: EBUSY" \
	'^mrcctl: plane 1 .* \(Device or resource busy\)$' \
	exits 1 M plane del dev mrc0 id 1
check_output "... mrc0 still has planes 1 2, mrc1 plane 1" '^1 2 / 1$' \
	sh -c "echo \"\$1 / \$2\"" - "$(planes mrc0)" "$(planes mrc1)"

# --- too many planes ----------------------------------------------------------------
fails=0
M plane add dev mrc0 netdev p3 || fails=$((fails + 1))
for i in $(seq 5 17); do
	M plane add dev mrc0 netdev e$i || fails=$((fails + 1))
done
check "planes 3..16 added" test "$fails" -eq 0
check_output "mrc0 has 16 planes" '^1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16$' planes mrc0
check_output "17th plane: ENOSPC" \
	'^mrcctl: .*no free plane id.* \(No space left on device\)$' \
	exits 1 M plane add dev mrc0 netdev e18
check_output "17th plane with an explicit taken id: EEXIST" \
	'^mrcctl: .*already in use.* \(File exists\)$' \
	exits 1 M plane add dev mrc0 netdev e18 id 16
check_output "plane 1 still cannot go while 15 others exist: EBUSY" \
	'^mrcctl: plane 1 .*\(Device or resource busy\)$' \
	exits 1 M plane del dev mrc0 id 1
check "after freeing id 9, e18 fits" \
	sh -c "$(printf '%q ' "$MRCCTL" -n "$A") plane del dev mrc0 id 9 &&
	       $(printf '%q ' "$MRCCTL" -n "$A") plane add dev mrc0 netdev e18"
check_output "... as plane 9" '^dev mrc0 id 9 netdev e18 ' M plane show dev mrc0 id 9

# --- unprivileged caller ----------------------------------------------------------
if [ ${#unpriv[@]} -eq 0 ]; then
	skip "unprivileged plane add" "neither setpriv nor capsh"
else
	U() { ns_exec "$A" "${unpriv[@]}" "$MRCCTL" "$@"; }
	check_output "unprivileged plane add: EPERM" \
		'^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U plane add dev mrc1 netdev e18
	check_output "unprivileged plane set: EPERM" \
		'^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U plane set dev mrc0 id 2 down
	check_output "unprivileged plane del: EPERM" \
		'^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U plane del dev mrc0 id 2
	check_output "unprivileged plane show works" '^dev mrc0 id 2 netdev p2 .*admin up' \
		U plane show
	check_output "unprivileged dev show works" '^mrc1: ' U dev show
	check_output "unprivileged plane show of one plane works" '^dev mrc0 id 1 ' \
		U plane show dev mrc0 id 1
fi

# --- requests mrcctl refuses itself (exit 2) ----------------------------------------
check_output "no arguments: usage, exit 2" '^Usage: mrcctl' exits 2 "$MRCCTL"
check_output "options but no command: exit 2" '^mrcctl: no command given' exits 2 M
check_output "missing netdev: exit 2" "missing 'netdev NAME'" exits 2 M plane add dev mrc0
check_output "missing dev: exit 2" "missing 'dev NAME'" exits 2 M plane del id 2
check_output "missing id: exit 2" "missing 'id ID'" exits 2 M plane del dev mrc0
check_output "missing up/down: exit 2" "missing 'up' or 'down'" \
	exits 2 M plane set dev mrc0 id 2
check_output "id not a number: exit 2" "invalid id 'abc'" exits 2 M plane del dev mrc0 id abc
check_output "negative id: exit 2" "invalid id '-1'" exits 2 M plane del dev mrc0 id -1
check_output "id beyond 32 bits: exit 2" "invalid id '4294967296'" \
	exits 2 M plane del dev mrc0 id 4294967296
check_output "id without value: exit 2" "id needs a number" exits 2 M plane del dev mrc0 id
check_output "repeated key: exit 2" "dev given twice" \
	exits 2 M plane del dev mrc0 dev mrc1 id 2
check_output "unknown word: exit 2, names it" "unknown word 'bogus'" \
	exits 2 M plane add dev mrc0 netdev p3 bogus
check_output "ambiguous prefix: exit 2, names both" "'s' is ambiguous \(show, set\)" \
	exits 2 M plane s
check_output "netdev name of 16 characters: exit 2" "longer than 15" \
	exits 2 M plane add dev mrc0 netdev abcdefghijklmnop
check_output "unknown object: exit 2 with a hint" "^Try 'mrcctl help'" exits 2 M frobnicate
check_output "unknown option: exit 2" "unknown option '-x'" exits 2 M -x plane show
check_output "usage errors point at the right help" "^Try 'mrcctl plane set help'" \
	exits 2 M plane set dev mrc0 id 2 sideways

# --- nothing changed ------------------------------------------------------------------
check_output "after all refusals: mrc0 planes 1-16, mrc1 plane 1" \
	'^1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 / 1$' \
	sh -c "echo \"\$1 / \$2\"" - "$(planes mrc0)" "$(planes mrc1)"
check "-j plane show: every plane admin up" \
	sh -c "$(printf '%q ' "$MRCCTL" -n "$A") -j plane show |
	       python3 -S -c 'import json,sys; sys.exit(any(p[\"admin_state\"] != \"up\" for p in json.load(sys.stdin)))'"

# --- module not loaded -----------------------------------------------------------------
N rdma link del mrc0
N rdma link del mrc1
check "rmmod mrc" mrc_unload
check_output "without the module: exit 1 and says so" \
	'^mrcctl: the mrc module is not loaded \(generic netlink family "mrc" not found\)$' \
	exits 1 M plane show
check_output "without the module, monitor says so too" \
	'^mrcctl: the mrc module is not loaded' exits 1 M monitor

done_testing
