#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 900
#
# Routes (mrcctl route): add, show (text, -j, one route), set, del, IPv4
# and IPv6; the events a monitor prints; the hop of a deleted plane
# removed from its routes (a route left without hops deleted); routes gone
# with their instance. Then every bad request: refused with its errno and
# the kernel's extack message, leaving the table unchanged; what mrcctl
# refuses itself exits 2. Requests mrcctl never sends (missing or malformed
# attributes) go through genl_route, the spec-driven client mrc_genl.py.
. "$(dirname "$0")/lib.sh"

mrc_monitor_test mrc43

# genl_route OP [KEY=VALUE...]: one request of operation OP (route-add,
# ...) with exactly these attributes, named from the spec by mrc_genl.py;
# prints "ok" or "error ENAME (strerror): extack".
#   dev=NAME  peer=ADDR | peer=hex:HEX  ev=N  cc=N
#   hops=HOP;HOP;...  (hops= : an empty nest) where HOP is PLANE/VIA,
#   either part may be empty (left out), VIA may be hex:HEX, and "X" is
#   an entry that is not a hop (a route peer).
GENL_ROUTE='
import socket
KEYS = {"dev": "dev-name", "peer": "peer", "ev": "ev-profile", "cc": "cc-profile"}

pairs = []
for spec in sys.argv[2:]:
    k, v = spec.split("=", 1)
    if k in ("ev", "cc"):
        pairs.append((KEYS[k], int(v)))
    elif k in KEYS:
        pairs.append((KEYS[k], v))
    elif k == "hops":
        hops = []
        for hop in (v.split(";") if v else []):
            if hop == "X":
                hops.append(("route.peer", "10.0.0.1"))
                continue
            plane, via = hop.split("/")
            h = []
            if plane:
                h.append(("plane", int(plane)))
            if via:
                h.append(("via", via))
            hops.append(("hop", h))
        pairs.append(("hops", hops))
    else:
        sys.exit("unknown key " + k)

if sys.argv[1] == "bulk":
    # 1023 routes 10.200.x.y, plane 1 via the same address; print the
    # number of refusals.
    c = Client()
    bad = 0
    for i in range(1023):
        ip = "10.200.%d.%d" % (i // 256, i % 256)
        err = c.request("route-add", pairs + [("peer", ip),
                        ("hops", [("hop", [("plane", 1), ("via", ip)])])])[0]
        bad += err != 0
    print(bad)
    sys.exit(0)
result(sys.argv[1], pairs)
'
genl_route() { genl_py "$A" "$GENL_ROUTE" "$@"; }

# Operations of the spec.
ROUTE_ADD=route-add
ROUTE_DEL=route-del
ROUTE_SET=route-set
ROUTE_GET=route-get

require_cmd python3
mrc_ctl_setup 4

mrc_monitors p4

check "rdma link add mrc0 (plane 1 = p1)" N rdma link add mrc0 type mrc netdev p1
check "rdma link add mrc1 (plane 1 = p4)" N rdma link add mrc1 type mrc netdev p4
check "plane add p2 to mrc0 (id 2)" M plane add dev mrc0 netdev p2
check "plane add p3 to mrc0 (id 3)" M plane add dev mrc0 netdev p3 id 3
# The profiles the routes below name (test_44 covers profiles).
for id in 7 65535; do
	check "ev-profile $id on mrc0" \
		M ev-profile add dev mrc0 id $id mode auto format udp count 8 planes 1-3
	check "... offline" M ev-profile set dev mrc0 id $id state offline
	check "... online" M ev-profile set dev mrc0 id $id state online
done
for id in 1 65535; do
	check "cc-profile $id on mrc0" M cc-profile add dev mrc0 id $id algo uet-1.0-nscc
done

# --- positive ---------------------------------------------------------------
check_output "no routes yet" '^$' M route show
check "route add (the issue's example)" \
	M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 plane 2 via 10.2.0.2 ev-profile 7 cc-profile 1
check_output "route show" \
	'^dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via 10.2.0.2 ev-profile 7 cc-profile 1$' \
	M route show
check_output "route show dev mrc0 10.0.0.2 (one route)" \
	'^dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via 10.2.0.2 ev-profile 7 cc-profile 1$' \
	M route show dev mrc0 10.0.0.2
check_output "-j route show" \
	'^\[\{"dev":"mrc0","dev_index":[0-9]+,"peer":"10.0.0.2","hops":\[\{"plane":1,"via":"10.1.0.2"\},\{"plane":2,"via":"10.2.0.2"\}\],"ev_profile":7,"cc_profile":1\}\]$' \
	M -j route show
check "IPv6 route add (default profiles, abbreviated keywords)" \
	M ro a fd00::2 d mrc0 pl 3 v fd03::2 pl 1 via fd01::2
check_output "IPv6 route: hops in plane order, profiles 0" \
	'^dev mrc0 fd00::2 plane 1 via fd01::2 plane 3 via fd03::2 ev-profile 0 cc-profile 0$' \
	M route show fd00:0::2
check_output "dump lists both, in order of addition" \
	'^dev mrc0 10\.0\.0\.2 [^|]*\|dev mrc0 fd00::2 [^|]*$' joined M route show dev mrc0
check "route set replaces the route" \
	M route set 10.0.0.2 dev mrc0 plane 3 via 10.3.0.2 cc-profile 65535
check_output "... replaced" \
	'^dev mrc0 10.0.0.2 plane 3 via 10.3.0.2 ev-profile 0 cc-profile 65535$' \
	M route show dev mrc0 10.0.0.2
check "the same peer on another instance" M route add 10.0.0.2 dev mrc1 plane 1 via 10.9.0.2
check_output "route show dev mrc1: only its route" \
	'^dev mrc1 10.0.0.2 plane 1 via 10.9.0.2 ev-profile 0 cc-profile 0$' M route show dev mrc1
check_output "route show PEER without dev: both instances" \
	'^dev mrc0 10\.0\.0\.2 [^|]*\|dev mrc1 10\.0\.0\.2 [^|]*$' joined M route show 10.0.0.2
check_output "route show of a peer without a route: nothing" '^$' M route show 10.7.7.7

# Deleting a plane removes its hops; a route left without any is deleted.
check "plane del id 3" M plane del dev mrc0 id 3
check_output "... fd00::2 lost its plane-3 hop" \
	'^dev mrc0 fd00::2 plane 1 via fd01::2 ev-profile 0 cc-profile 0$' M route show dev mrc0
check_output "... 10.0.0.2 of mrc0 (only plane 3) is gone" \
	'^mrcctl: no route to this peer \(No such file or directory\)$' \
	exits 1 M route show dev mrc0 10.0.0.2
check "plane add p3 again (id 3)" M plane add dev mrc0 netdev p3 id 3
check "route del fd00::2" M route del fd00::2 dev mrc0
check_output "mrc0 has no routes" '^$' M route show dev mrc0

# Routes go with their instance.
check "rdma link del mrc1 (has a route)" N rdma link del mrc1
check "rdma link add mrc1 again" N rdma link add mrc1 type mrc netdev p4
check_output "the new mrc1 has no routes" '^$' M route show

# --- events -------------------------------------------------------------------
check "monitor saw the last route event" wait_line "$txt" '^route del dev mrc1 10.0.0.2 '
check "monitor: every route event, in order" in_order "$txt" \
	'^route add dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via 10.2.0.2 ev-profile 7 cc-profile 1$' \
	'^route add dev mrc0 fd00::2 plane 1 via fd01::2 plane 3 via fd03::2 ev-profile 0 cc-profile 0$' \
	'^route add dev mrc0 10.0.0.2 plane 3 via 10.3.0.2 ev-profile 0 cc-profile 65535$' \
	'^route add dev mrc1 10.0.0.2 plane 1 via 10.9.0.2 ev-profile 0 cc-profile 0$' \
	'^plane del dev mrc0 id 3 ' \
	'^route del dev mrc0 10.0.0.2 plane 3 via 10.3.0.2 ev-profile 0 cc-profile 65535$' \
	'^route add dev mrc0 fd00::2 plane 1 via fd01::2 ev-profile 0 cc-profile 0$' \
	'^route del dev mrc0 fd00::2 plane 1 via fd01::2 ' \
	'^route del dev mrc1 10.0.0.2 plane 1 via 10.9.0.2 ' \
	'^dev del dev mrc1 '
check "-j monitor saw the last route event" wait_line "$json" '"event":"route_del","dev":"mrc1"'
check "-j monitor: route events, in order" in_order "$json" \
	'^\{"event":"route_add","dev":"mrc0","dev_index":[0-9]+,"peer":"10.0.0.2","hops":\[\{"plane":1,"via":"10.1.0.2"\},\{"plane":2,"via":"10.2.0.2"\}\],"ev_profile":7,"cc_profile":1\}$' \
	'"event":"route_add","dev":"mrc0","dev_index":[0-9]+,"peer":"fd00::2"' \
	'"event":"route_del","dev":"mrc0","dev_index":[0-9]+,"peer":"10.0.0.2"' \
	'"event":"route_del","dev":"mrc1","dev_index":[0-9]+,"peer":"10.0.0.2"'
kill -TERM $mon_txt $mon_json
wait $mon_txt $mon_json
check_output "nothing on the monitors' stderr" '^$' \
	sh -c "grep -h '^mrcctl:' \"\$1\" \"\$2\"; true" - "$txt" "$json"

# --- bad requests through mrcctl (exit 1, the kernel's extack) ----------------
check "route add 10.0.0.2 to mrc0 for the checks below" \
	M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2
nodev='^mrcctl: no such MRC device in this network namespace \(No such device\)$'
refused_each "$nodev" \
	"add on unknown instance: ENODEV|route add 10.0.0.3 dev nosuch plane 1 via 10.1.0.3" \
	"set on unknown instance: ENODEV|route set 10.0.0.2 dev nosuch plane 1 via 10.1.0.3" \
	"del on unknown instance: ENODEV|route del 10.0.0.2 dev nosuch" \
	"show of unknown instance: ENODEV|route show dev nosuch" \
	"show of one route of unknown instance: ENODEV|route show dev nosuch 10.0.0.2"
check_output "IPv4 peer, IPv6 via: EAFNOSUPPORT" \
	"^mrcctl: via address family differs from the peer's \(Address family not supported by protocol\)$" \
	exits 1 M route add 10.0.0.3 dev mrc0 plane 1 via fd01::3
check_output "IPv6 peer, IPv4 via (second hop): EAFNOSUPPORT" \
	"^mrcctl: via address family differs from the peer's \(Address family not supported by protocol\)$" \
	exits 1 M route add fd00::3 dev mrc0 plane 1 via fd01::3 plane 2 via 10.2.0.3
range='^mrcctl: plane id out of range \(1..16\) \(Numerical result out of range\)$'
check_output "plane 0: ERANGE" "$range" exits 1 M route add 10.0.0.3 dev mrc0 plane 0 via 10.1.0.3
check_output "plane 17: ERANGE" "$range" exits 1 M route add 10.0.0.3 dev mrc0 plane 17 via 10.1.0.3
check_output "plane 4294967295: ERANGE" "$range" \
	exits 1 M route add 10.0.0.3 dev mrc0 plane 4294967295 via 10.1.0.3
check_output "plane 5 not attached: ENOENT" \
	'^mrcctl: no such plane in this device \(No such file or directory\)$' \
	exits 1 M route add 10.0.0.3 dev mrc0 plane 1 via 10.1.0.3 plane 5 via 10.5.0.3
check_output "plane 2 of mrc0 is not one of mrc1: ENOENT" \
	'^mrcctl: no such plane in this device \(No such file or directory\)$' \
	exits 1 M route add 10.0.0.3 dev mrc1 plane 2 via 10.2.0.3
check_output "same plane twice: EINVAL" \
	'^mrcctl: plane given twice in one route \(Invalid argument\)$' \
	exits 1 M route add 10.0.0.3 dev mrc0 plane 2 via 10.2.0.3 plane 2 via 10.2.0.4
hops17=()
for i in $(seq 1 17); do hops17+=(plane "$i" via 10.$i.0.3); done
check_output "17 hops: E2BIG" \
	'^mrcctl: more hops than planes \(16\) \(Argument list too long\)$' \
	exits 1 M route add 10.0.0.3 dev mrc0 "${hops17[@]}"
check_output "route exists (add): EEXIST" \
	'^mrcctl: a route to this peer exists \(use ROUTE_SET to replace it\) \(File exists\)$' \
	exits 1 M route add 10.0.0.2 dev mrc0 plane 2 via 10.2.0.2
noroute='^mrcctl: no route to this peer \(No such file or directory\)$'
refused_each "$noroute" \
	"del of a missing route: ENOENT|route del 10.0.0.9 dev mrc0" \
	"set of a missing route: ENOENT|route set 10.0.0.9 dev mrc0 plane 1 via 10.1.0.9" \
	"show of a missing route: ENOENT|route show dev mrc0 10.0.0.9" \
	"an IPv6 peer never names an IPv4 route: ENOENT|route del ::a00:2 dev mrc0"
check_output "ev-profile 65536: ERANGE" \
	'^mrcctl: profile id out of range \(0..65535\) \(Numerical result out of range\)$' \
	exits 1 M route add 10.0.0.3 dev mrc0 plane 1 via 10.1.0.3 ev-profile 65536
check_output "cc-profile 4294967295: ERANGE" \
	'^mrcctl: profile id out of range \(0..65535\) \(Numerical result out of range\)$' \
	exits 1 M route set 10.0.0.2 dev mrc0 plane 1 via 10.1.0.3 cc-profile 4294967295
check_output "refused set left the route as it was" \
	'^dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 ev-profile 0 cc-profile 0$' M route show

# --- malformed requests (raw) ---------------------------------------------------
check_output "raw client works: a valid get succeeds" '^ok$' \
	genl_route $ROUTE_GET dev=mrc0 peer=10.0.0.2
check_output "add without instance: EINVAL, missing device" \
	'^error EINVAL .*: missing device' exits 1 genl_route $ROUTE_ADD peer=10.0.0.3 hops=1/10.1.0.3
for c in ADD DEL SET GET; do
	eval cmd=\$ROUTE_$c
	# Hops only where the operation takes them: its policy refuses them
	# elsewhere.
	hops=
	case $c in ADD|SET) hops=hops=1/10.1.0.3 ;; esac
	check_output "$c without peer: EINVAL, missing peer address" \
		'^error EINVAL .*: missing peer address \(MRC_A_ROUTE_PEER\)$' \
		exits 1 genl_route "$cmd" dev=mrc0 $hops
	check_output "$c with a 5-byte peer: EINVAL, invalid peer address" \
		'^error EINVAL .*: invalid peer address: 4 bytes \(IPv4\) or 16 bytes \(IPv6\)$' \
		exits 1 genl_route "$cmd" dev=mrc0 peer=hex:0a00000203 $hops
done
check_output "hops in a route get: refused by its policy" '^error EINVAL .*: .+' \
	exits 1 genl_route $ROUTE_GET dev=mrc0 peer=10.0.0.2 hops=1/10.1.0.2
check_output "peer longer than 16 bytes: refused by the policy" '^error E[A-Z]+ .*: .+' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=hex:$(printf '01%.0s' $(seq 17)) hops=1/10.1.0.3
check_output "add without hops: EINVAL" '^error EINVAL .*: missing hops \(MRC_A_ROUTE_HOPS\)$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3
check_output "add with no hop: EINVAL" '^error EINVAL .*: a route needs at least one hop$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3 hops=
check_output "hop without plane: EINVAL" \
	'^error EINVAL .*: missing hop plane id \(MRC_A_ROUTE_HOP_PLANE\)$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3 hops=/10.1.0.3
check_output "hop without via: EINVAL" \
	'^error EINVAL .*: missing hop address \(MRC_A_ROUTE_HOP_VIA\)$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3 hops=1/
check_output "via of 3 bytes: EINVAL" \
	'^error EINVAL .*: invalid via address: 4 bytes \(IPv4\) or 16 bytes \(IPv6\)$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3 hops=1/hex:0a0100
check_output "an entry of HOPS that is not a HOP: EINVAL" \
	'^error EINVAL .*: MRC_A_ROUTE_HOPS holds only MRC_A_ROUTE_HOP entries$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3 hops="1/10.1.0.3;X"
check_output "17 hops (raw, all on plane 1): E2BIG" \
	'^error E2BIG .*: more hops than planes \(16\)$' \
	exits 1 genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.3 \
	hops="$(for i in $(seq 17); do printf '1/10.1.0.%d;' "$i"; done | sed 's/;$//')"
check_output "profile at the limit is fine (raw)" '^ok$' \
	genl_route $ROUTE_ADD dev=mrc0 peer=10.0.0.4 hops=1/10.1.0.4 ev=65535 cc=65535
check_output "raw del" '^ok$' genl_route $ROUTE_DEL dev=mrc0 peer=10.0.0.4

# --- unprivileged caller --------------------------------------------------------
if [ ${#unpriv[@]} -eq 0 ]; then
	skip "unprivileged route add" "neither setpriv nor capsh"
else
	U() { ns_exec "$A" "${unpriv[@]}" "$MRCCTL" "$@"; }
	check_output "unprivileged route add: EPERM" '^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U route add 10.0.0.3 dev mrc0 plane 1 via 10.1.0.3
	check_output "unprivileged route set: EPERM" '^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U route set 10.0.0.2 dev mrc0 plane 1 via 10.1.0.3
	check_output "unprivileged route del: EPERM" '^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U route del 10.0.0.2 dev mrc0
	check_output "unprivileged route show works" '^dev mrc0 10.0.0.2 ' U route show
fi

# --- requests mrcctl refuses itself (exit 2) ------------------------------------
check_output "missing peer: exit 2" 'missing peer address' \
	exits 2 M route add dev mrc0 plane 1 via 10.1.0.3
check_output "missing dev: exit 2" "missing 'dev NAME'" exits 2 M route add 10.0.0.3 plane 1 via 10.1.0.3
check_output "missing hops: exit 2" "missing 'plane N via ADDR'" exits 2 M route add 10.0.0.3 dev mrc0
check_output "plane without via: exit 2" "'plane 1' needs 'via ADDR'" \
	exits 2 M route add 10.0.0.3 dev mrc0 plane 1
check_output "bad via address: exit 2" "invalid via address '10.1.0.300'" \
	exits 2 M route add 10.0.0.3 dev mrc0 plane 1 via 10.1.0.300
check_output "plane not a number: exit 2" "invalid plane 'x'" \
	exits 2 M route add 10.0.0.3 dev mrc0 plane x via 10.1.0.3
check_output "bad peer is an unknown word: exit 2" "unknown word '10.0.0.300'" \
	exits 2 M route del 10.0.0.300 dev mrc0
check_output "two peers: exit 2" "peer address given twice" \
	exits 2 M route del 10.0.0.2 10.0.0.3 dev mrc0
check_output "del takes no hops: exit 2" "unknown word 'plane'" \
	exits 2 M route del 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2
check_output "profile not a number: exit 2" "invalid ev-profile '-1'" \
	exits 2 M route add 10.0.0.3 dev mrc0 plane 1 via 10.1.0.3 ev-profile -1
check_output "usage errors point at the right help" "^Try 'mrcctl route add help'" \
	exits 2 M route add 10.0.0.3 dev mrc0 plane 1

# --- table full -------------------------------------------------------------------
# 1023 more routes on mrc0 (10.0.0.2 is the first) over one socket (1023
# mrcctl runs take minutes in an emulated VM), then the 1025th.
fails=$(genl_route bulk dev=mrc0)
check "1023 more routes added" test "$fails" = 0
check_output "mrc0 has 1024 routes" '^1024$' sh -c "$(printf '%q ' "$MRCCTL" -n "$A") route show dev mrc0 | wc -l"
check_output "1025th route: ENOSPC" \
	'^mrcctl: route table full \(1024 routes per device\) \(No space left on device\)$' \
	exits 1 M route add 10.99.0.1 dev mrc0 plane 1 via 10.1.0.1
check "replacing one of them still works when full" \
	M route set 10.0.0.2 dev mrc0 plane 2 via 10.2.0.2
check "mrc1 has a table of its own" M route add 10.99.0.1 dev mrc1 plane 1 via 10.1.0.1
check_output "-j route show: 1025 routes, one array" '^1025$' \
	sh -c "$(printf '%q ' "$MRCCTL" -n "$A") -j route show | python3 -S -c 'import json,sys; print(len(json.load(sys.stdin)))'"
check "rdma link del mrc0 with 1024 routes" N rdma link del mrc0
check_output "only mrc1's route is left" '^dev mrc1 10.99.0.1 ' M route show

# --- module goes ------------------------------------------------------------------
N rdma link del mrc1
check "rmmod mrc" mrc_unload

done_testing
