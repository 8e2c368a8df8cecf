# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Multi-plane fabrics of the MRC selftests, built from network namespaces,
# veth pairs and plain Linux routers.  Source it after lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/lib_fabric.sh"
#
# Two hosts, h1 and h2, with an mrc instance each ($H1_DEV, $H2_DEV); the
# netdev of plane P is "eP" on both hosts.  Two shapes:
#
#   fabric_direct N [v4|v6]      N veth pairs h1:eP <-> h2:eP, one subnet
#                                per plane, no router.
#   fabric_leafspine P S [v4|v6] per plane a leaf router in front of each
#                                host and S spine routers; the leaves
#                                spread over the spines by ECMP (L4 hash),
#                                each spine has an SRv6 End SID.
#
# Both add planes 2..N to the instances; fabric_routes adds on each host
# the route to the other host over every plane (fabric_unroute deletes
# it).  The address of host H (1 or 2) on plane P is "fab_addr H P"; the
# peer address of a QP (the route's PEER) is the plane-1 one.  IPv4 is
# always configured (the TCP side channels of the verbs programs use it);
# with v6 the hosts and routers get IPv6 addresses too and the RDMA
# traffic (GID, routes) uses them.
#
# Addresses (p = plane, s = spine):
#   direct     h1 10.p.0.1/24, h2 10.p.0.2/24;  fd00:p::1/64, fd00:p::2/64
#   leafspine  h1 10.p.1.1/24 (leaf 10.p.1.254), h2 10.p.2.1/24 (leaf
#              10.p.2.254); leaf1-spine s 10.p.(10+s).0/24, leaf2-spine s
#              10.p.(20+s).0/24 (leaf .1, spine .2).  IPv6 the same in
#              fd00:p:X::/64 (fd00:p:1::1, fd00:p:2::1, fd00:p:1s::, ...)
#   SIDs       fc00:p:s::e on spine s of plane p (seg6local End)
# Router namespaces: "pPl1", "pPl2" (leaves in front of h1, h2), "pPsS"
# (spines).  Interfaces: leaf "eh" (to the host) and "sS" (to spine S),
# spine "l1" and "l2" (to the leaves).

FAB_KIND=		# direct | leafspine
FAB_PLANES=0
FAB_SPINES=0
FAB_FAMILY=v4
FAB_ROUTERS=()		# router namespaces, leaves first
FAB_ROUTE_OPTS=()	# more words of "mrcctl route add" (ev-profile ID)
FAB_PY=${FAB_PY:-/usr/bin/python3}

# fab_addr H P: the address of host H (1|2) on plane P in $FAB_FAMILY.
fab_addr() {
	local h=$1 p=$2
	case $FAB_KIND:$FAB_FAMILY in
	direct:v4) echo "10.$p.0.$h" ;;
	direct:v6) echo "fd00:$p::$h" ;;
	leafspine:v4) echo "10.$p.$h.1" ;;
	leafspine:v6) echo "fd00:$p:$h::1" ;;
	esac
}

# fab_addr4 H P: the IPv4 address of host H on plane P (side channels).
fab_addr4() {
	local save=$FAB_FAMILY r
	FAB_FAMILY=v4
	r=$(fab_addr "$1" "$2")
	FAB_FAMILY=$save
	echo "$r"
}

# fab_sid P S: the SRv6 End SID of spine S of plane P.
fab_sid() {
	echo "fc00:$1:$2::e"
}

# fab_dev H: the RDMA device of host H.
fab_dev() {
	if [ "$1" = 1 ]; then echo "$H1_DEV"; else echo "$H2_DEV"; fi
}

# The topology is written as "ip -batch" lines per namespace ("-": the
# initial one, where the veth pairs are made) and run with one "ip" per
# namespace: under TCG every process costs a few hundred ms, so a fabric
# of ten namespaces built command by command takes minutes.
declare -A _fab_batch

# _fab_b NS WORD...: one batch line for NS.
_fab_b() {
	local ns=$1
	shift
	_fab_batch[$ns]+="$*"$'\n'
}

# _fab_ns NS SYSCTL...: a new namespace (deleted at exit, as ns_create
# does) with its sysctls set and lo up.
_fab_ns() {
	local ns=$1
	shift
	if ! ip netns add "$ns"; then
		diag "fabric: cannot create netns $ns"
		return 1
	fi
	_mrc_record_netns "$ns"
	_fab_b "$ns" link set lo up
	ip netns exec "$ns" sysctl -qw "$@" >/dev/null
}

# Hosts: no reverse-path filter (one connection's packets arrive on
# several netdevs), SRH accepted (SRv6 EVs end at the host with
# segments_left 0).
_FAB_HOST_SYSCTLS=(net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
	net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.default.seg6_enabled=1)
# Routers: forwarding, L4 ECMP hashing, SRv6.  IPv4 policy 1 hashes the
# 5-tuple (the UDP source port is the EV).  IPv6 policy 3 hashes the
# fields of fib_multipath_hash_fields: 0x3f = source and destination
# address, protocol, flow label, source and destination port, so that both
# UDP and STEV (flow label + port) EVs spread.  A nexthop whose link is
# down is not used (ignore_routes_with_linkdown): otherwise a router keeps
# sending into a dead link.
_FAB_ROUTER_SYSCTLS=("${_FAB_HOST_SYSCTLS[@]}" net.ipv4.ip_forward=1
	net.ipv4.fib_multipath_hash_policy=1
	net.ipv4.conf.all.ignore_routes_with_linkdown=1
	net.ipv4.conf.default.ignore_routes_with_linkdown=1
	net.ipv6.conf.all.forwarding=1 net.ipv6.fib_multipath_hash_policy=3
	net.ipv6.fib_multipath_hash_fields=0x3f
	net.ipv6.conf.all.ignore_routes_with_linkdown=1
	net.ipv6.conf.default.ignore_routes_with_linkdown=1)

# _fab_link NS1 IF1 NS2 IF2 NET4 NET6 A B: a veth pair, up, with IPv4
# NET4.A/24 and NET4.B/24 and, with v6, NET6::A/64 and NET6::B/64 (A and B
# decimal, written in hex in IPv6).
_fab_link() {
	local ns1=$1 if1=$2 ns2=$3 if2=$4 n4=$5 n6=$6 a=$7 b=$8
	_fab_b - link add "$if1" netns "$ns1" type veth peer name "$if2" netns "$ns2"
	_fab_b "$ns1" addr add "$n4.$a/24" dev "$if1"
	_fab_b "$ns2" addr add "$n4.$b/24" dev "$if2"
	if [ "$FAB_FAMILY" = v6 ]; then
		_fab_b "$ns1" addr add "$n6::$(printf %x "$a")/64" dev "$if1" nodad
		_fab_b "$ns2" addr add "$n6::$(printf %x "$b")/64" dev "$if2" nodad
	fi
	_fab_b "$ns1" link set "$if1" up
	_fab_b "$ns2" link set "$if2" up
}

# _fab_ecmp NS PREFIX VIA_FMT: a multipath route to PREFIX in NS with one
# nexthop per spine s: via VIA_FMT (printf, %d = s) dev "ss".
_fab_ecmp() {
	local ns=$1 prefix=$2 fmt=$3 s nh=()
	for s in $(seq "$FAB_SPINES"); do
		# shellcheck disable=SC2059 # the format is the caller's
		nh+=(nexthop via "$(printf "$fmt" "$s")" dev "s$s")
	done
	if [ "$FAB_SPINES" -eq 1 ]; then
		_fab_b "$ns" route add "$prefix" "${nh[@]:1}"
	else
		_fab_b "$ns" route add "$prefix" "${nh[@]}"
	fi
}

# _fab_run: the batches, the initial namespace's (the veth pairs) first.
_fab_run() {
	local ns f rc=0
	f=$(mktemp) || return 1
	for ns in - h1 h2 "${FAB_ROUTERS[@]}"; do
		[ -n "${_fab_batch[$ns]:-}" ] || continue
		printf '%s' "${_fab_batch[$ns]}" >"$f"
		if ! _mrc_run ns_exec "$ns" ip -batch "$f"; then
			diag "fabric: ip -batch failed in namespace $ns:"
			diag "$_mrc_out"
			rc=1
			break
		fi
	done
	rm -f "$f"
	_fab_batch=()
	return $rc
}

# _fab_start KIND PLANES SPINES FAMILY: the hosts h1 and h2.
_fab_start() {
	FAB_KIND=$1
	FAB_PLANES=$2
	FAB_SPINES=$3
	FAB_FAMILY=${4:-v4}
	FAB_ROUTERS=()
	_fab_batch=()
	case $FAB_FAMILY in
	v4 | v6) ;;
	*) diag "fabric: family must be v4 or v6, not '$FAB_FAMILY'"; return 1 ;;
	esac
	_fab_ns h1 "${_FAB_HOST_SYSCTLS[@]}" && _fab_ns h2 "${_FAB_HOST_SYSCTLS[@]}"
}

# _fab_instances: mrc1 on h1:e1 and mrc2 on h2:e1, planes 2..N on eP
# (id P), and the plane-1 GID of each in $FAB_GID (the same index on both
# hosts; 1 for IPv4).
_fab_instances() {
	local h p ns dev a
	for h in 1 2; do
		ns=h$h
		dev=$(fab_dev $h)
		ns_exec "$ns" rdma link add "$dev" type mrc netdev e1 || return 1
		for p in $(seq 2 "$FAB_PLANES"); do
			ns_exec "$ns" "$MRCCTL" plane add dev "$dev" netdev "e$p" id "$p" || return 1
		done
		mrc_wait_gid "$ns" "$dev" "$(fab_addr4 $h 1)" || return 1
	done
	FAB_GID=1
	[ "$FAB_FAMILY" = v6 ] || return 0
	local g1 g2
	for h in 1 2; do
		a=$(fab_addr $h 1)
		if ! wait_output "$a, RoCE v2" ns_exec h$h ibv_devinfo -v -d "$(fab_dev $h)" >/dev/null; then
			diag "fabric: $(fab_dev $h) has no GID for $a"
			return 1
		fi
	done
	g1=$(fab_gid_index h1 "$H1_DEV" "$(fab_addr 1 1)")
	g2=$(fab_gid_index h2 "$H2_DEV" "$(fab_addr 2 1)")
	if [ -z "$g1" ] || [ "$g1" != "$g2" ]; then
		diag "fabric: IPv6 GID indices differ: h1 '$g1', h2 '$g2'"
		return 1
	fi
	FAB_GID=$g1
}

# fab_gid_index NS DEV ADDR: the index of DEV's RoCE v2 GID ADDR.
fab_gid_index() {
	ns_exec "$1" ibv_devinfo -v -d "$2" |
		sed -nE "s/^[[:space:]]*GID\[ *([0-9]+)\]:[[:space:]]+$3, RoCE v2$/\1/p" |
		head -n 1
}

# fabric_direct N [v4|v6]: hosts h1, h2 joined by N veth pairs (plane P:
# h1:eP <-> h2:eP), the instances with N planes.  No route yet.  Call it
# directly, not as the command of a check (that runs in a subshell and
# the FAB_* variables would be lost).
fabric_direct() {
	local p
	_fab_start direct "$1" 0 "${2:-v4}" || return 1
	for p in $(seq "$FAB_PLANES"); do
		_fab_link h1 "e$p" h2 "e$p" "10.$p.0" "fd00:$p" 1 2
	done
	_fab_run && _fab_instances
}

# fabric_leafspine PLANES SPINES [v4|v6]: per plane P a leaf pPl1 in front
# of h1, a leaf pPl2 in front of h2 and SPINES spines pPsS, each leaf
# linked to every spine; the leaves reach the other host's subnet over all
# spines (ECMP), each spine has the SRv6 End SID fc00:P:S::e (v6), routed
# by both leaves to that spine only.  The instances with PLANES planes.
# Call it directly (see fabric_direct).
fabric_leafspine() {
	local p s l ns
	_fab_start leafspine "$1" "$2" "${3:-v4}" || return 1
	for p in $(seq "$FAB_PLANES"); do
		for l in 1 2; do
			ns=p${p}l$l
			_fab_ns "$ns" "${_FAB_ROUTER_SYSCTLS[@]}" || return 1
			FAB_ROUTERS+=("$ns")
			_fab_link "h$l" "e$p" "$ns" eh "10.$p.$l" "fd00:$p:$l" 1 254
			_fab_b "h$l" route add "10.$p.0.0/16" via "10.$p.$l.254" dev "e$p"
			if [ "$FAB_FAMILY" = v6 ]; then
				_fab_b "h$l" route add "fd00:$p::/32" via "fd00:$p:$l::fe" dev "e$p"
				_fab_b "h$l" route add "fc00:$p::/32" via "fd00:$p:$l::fe" dev "e$p"
			fi
		done
		for s in $(seq "$FAB_SPINES"); do
			ns=p${p}s$s
			_fab_ns "$ns" "${_FAB_ROUTER_SYSCTLS[@]}" || return 1
			FAB_ROUTERS+=("$ns")
			for l in 1 2; do
				_fab_link "p${p}l$l" "s$s" "$ns" "l$l" "10.$p.$((l * 10 + s))" \
					"fd00:$p:$l$s" 1 2
				# The spine reaches host l's subnet through leaf l.
				_fab_b "$ns" route add "10.$p.$l.0/24" via "10.$p.$((l * 10 + s)).1" dev "l$l"
				if [ "$FAB_FAMILY" = v6 ]; then
					_fab_b "$ns" route add "fd00:$p:$l::/64" via "fd00:$p:$l$s::1" dev "l$l"
					_fab_b "p${p}l$l" route add "fc00:$p:$s::/48" via "fd00:$p:$l$s::2" dev "s$s"
				fi
			done
			[ "$FAB_FAMILY" = v6 ] &&
				_fab_b "$ns" route add "$(fab_sid "$p" "$s")/128" encap seg6local action End dev l1
		done
		# Each leaf reaches the other host's subnet over every spine.
		_fab_ecmp "p${p}l1" "10.$p.2.0/24" "10.$p.1%d.2"
		_fab_ecmp "p${p}l2" "10.$p.1.0/24" "10.$p.2%d.2"
		if [ "$FAB_FAMILY" = v6 ]; then
			_fab_ecmp "p${p}l1" "fd00:$p:2::/64" "fd00:$p:1%d::2"
			_fab_ecmp "p${p}l2" "fd00:$p:1::/64" "fd00:$p:2%d::2"
		fi
	done
	_fab_run && _fab_instances
}

# fabric_setup DESC PLANES SPINES [v4|v6]: the start of every fabric test:
# the tools the fabric needs and mrc loaded (else the test is skipped),
# then fabric_leafspine PLANES SPINES [v4|v6] as the check DESC; without
# the fabric the test ends here.  Not run
# through "check": the fabric's state (FAB_*, the namespaces to delete)
# must be set in this shell, not in a subshell.
fabric_setup() {
	local desc=$1
	shift
	require_cmd rdma ibv_devinfo tc python3 sysctl
	mrc_load || done_testing
	fabric_leafspine "$@"
	_fab_setup_check $? "$desc"
}

# fabric_direct_setup N: the start of a test on N direct planes: mrc loaded
# (else the test is skipped), then fabric_direct N as a check; without the
# fabric the test ends here.  Not run through "check" (see fabric_setup).
fabric_direct_setup() {
	mrc_load || done_testing
	fabric_direct "$1"
	_fab_setup_check $? \
		"fabric: $1 direct planes h1 <-> h2, $H1_DEV/$H2_DEV with planes 1-$1"
}

# _fab_setup_check RC DESC: the check DESC of a fabric set up with exit
# status RC; a fabric that failed ends the test.
_fab_setup_check() {
	if [ "$1" -eq 0 ]; then
		ok "$2"
		return 0
	fi
	not_ok "$2"
	done_testing
}

# fabric_routes [PLANE...]: on each host, the route to the other host
# (PEER = its plane-1 address) over the given planes (default all), via the
# other host's address on each.
fabric_routes() {
	local planes=("$@") h o p hops
	[ ${#planes[@]} -gt 0 ] || mapfile -t planes < <(seq "$FAB_PLANES")
	for h in 1 2; do
		o=$((3 - h))
		hops=()
		for p in "${planes[@]}"; do
			hops+=(plane "$p" via "$(fab_addr $o "$p")")
		done
		ns_exec "h$h" "$MRCCTL" route add "$(fab_addr $o 1)" dev "$(fab_dev $h)" \
			"${hops[@]}" "${FAB_ROUTE_OPTS[@]}" || return 1
	done
}

# fabric_unroute: delete the routes of fabric_routes.
fabric_unroute() {
	local h
	for h in 1 2; do
		ns_exec "h$h" "$MRCCTL" route del "$(fab_addr $((3 - h)) 1)" dev "$(fab_dev $h)" ||
			return 1
	done
}

# ---------------------------------------------------------------------
# Counters.

# fab_stats NS...: one line per interface of each namespace:
#   NS IF rx_bytes rx_packets tx_bytes tx_packets
# read from /proc/net/dev in one process (setns per namespace), so that a
# snapshot of the whole fabric is quick and nearly simultaneous.
FAB_STATS_PY='
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
for ns in sys.argv[1:]:
    fd = os.open("/var/run/netns/" + ns, os.O_RDONLY)
    if libc.setns(fd, 0x40000000) != 0:
        sys.exit("setns " + ns + ": " + os.strerror(ctypes.get_errno()))
    os.close(fd)
    with open("/proc/self/net/dev") as f:
        for line in f.readlines()[2:]:
            name, rest = line.split(":", 1)
            v = rest.split()
            print(ns, name.strip(), v[0], v[1], v[8], v[9])
'
fab_stats() {
	"$FAB_PY" -S -c "$FAB_STATS_PY" "$@"
}

# fab_snapshot FILE: fab_stats of the hosts and every router into FILE.
fab_snapshot() {
	fab_stats h1 h2 "${FAB_ROUTERS[@]}" >"$1"
}

# fab_delta OLD NEW NS IF FIELD: FIELD (rx_bytes rx_packets tx_bytes
# tx_packets) of NS/IF grown from snapshot OLD to NEW.
fab_delta() {
	local col
	case $5 in
	rx_bytes) col=3 ;; rx_packets) col=4 ;; tx_bytes) col=5 ;; tx_packets) col=6 ;;
	*) return 1 ;;
	esac
	awk -v ns="$3" -v dev="$4" -v c=$col '
		FNR == NR && $1 == ns && $2 == dev { old = $c }
		FNR != NR && $1 == ns && $2 == dev { new = $c; seen = 1 }
		END { if (!seen) exit 1; print new - old }' "$1" "$2"
}

# fab_plane_stats NS DEV: "plane tx_bytes rx_bytes" per plane of DEV from
# "mrcctl -s -j plane show" (the instance's own counters).
fab_plane_stats() {
	ns_exec "$1" "$MRCCTL" -s -j plane show dev "$2" |
		"$FAB_PY" -S -c '
import json, sys
for p in json.load(sys.stdin):
    s = p.get("stats", p)
    print(p["id"], s.get("tx_bytes", 0), s.get("rx_bytes", 0))'
}

# fab_shares_ok LABEL TOL VALUE...: every VALUE within TOL % of an even
# share of their sum (of the expected share when FAB_EXPECT holds one
# fraction per value); prints the shares.  Fails on a zero sum.
fab_shares_ok() {
	local label=$1 tol=$2
	shift 2
	awk -v label="$label" -v tol="$tol" -v expect="${FAB_EXPECT:-}" 'BEGIN {
		n = ARGC - 1; sum = 0
		for (i = 1; i <= n; i++) sum += ARGV[i]
		if (expect != "") ne = split(expect, e, " ")
		if (sum <= 0) { print label ": nothing counted"; exit 1 }
		bad = 0; line = label ":"
		for (i = 1; i <= n; i++) {
			want = (ne == n) ? e[i] : 1 / n
			share = ARGV[i] / sum
			line = line sprintf(" %d (%.1f%%, expected %.1f%%)", ARGV[i], share * 100, want * 100)
			if (share < want * (1 - tol / 100) || share > want * (1 + tol / 100)) bad = 1
		}
		print line
		exit bad
	}' "$@"
}

# ---------------------------------------------------------------------
# Faults.

# fab_spine_link P S L up|down: the link between leaf L (1: in front of
# h1, 2: of h2) and spine S of plane P, set down at the leaf's end (the
# spine's end loses its carrier).
fab_spine_link() {
	ip -n "p$1l$3" link set "s$2" "$4"
}

# fab_plane_link H P up|down: host H's netdev of plane P.  Taking a
# netdev down deletes the routes through it and bringing it up does not
# put them back: in an IPv4 leaf-spine fabric "up" adds the host's route
# of the plane again (as fabric_leafspine made it), or the host could no
# longer send on the plane it got back.  (An IPv6 fabric would lose the
# link's addresses too; no test takes a host's link down in one.)
fab_plane_link() {
	ip -n "h$1" link set "e$2" "$3" || return 1
	[ "$3" = up ] && [ "$FAB_KIND" = leafspine ] && [ "$FAB_FAMILY" = v4 ] || return 0
	ip -n "h$1" route replace "10.$2.0.0/16" via "10.$2.$1.254" dev "e$2"
}

# fab_blackhole NS DEV SPORT: drop every UDP packet with source port SPORT
# arriving on DEV in NS (tc flower on the clsact ingress hook, IPv4 and
# IPv6); fab_blackhole_drops NS DEV prints how many packets and bytes it
# dropped ("PACKETS BYTES").
fab_blackhole() {
	local ns=$1 dev=$2 sport=$3
	ns_exec "$ns" tc qdisc replace dev "$dev" clsact &&
		ns_exec "$ns" tc filter add dev "$dev" ingress pref 10 protocol ip \
			flower ip_proto udp src_port "$sport" action drop &&
		ns_exec "$ns" tc filter add dev "$dev" ingress pref 11 protocol ipv6 \
			flower ip_proto udp src_port "$sport" action drop
}

fab_blackhole_drops() {
	ns_exec "$1" tc -s -j filter show dev "$2" ingress |
		"$FAB_PY" -S -c '
import json, sys
n = b = 0
for f in json.load(sys.stdin):
    for a in f.get("options", {}).get("actions", []):
        n += a.get("stats", {}).get("packets", 0)
        b += a.get("stats", {}).get("bytes", 0)
print(n, b)'
}

fab_blackhole_off() {
	ns_exec "$1" tc qdisc del dev "$2" clsact 2>/dev/null
	return 0
}

# fab_loss H P PCT: netem loss PCT % on host H's netdev of plane P
# (egress); fab_loss_off H P removes it.
fab_loss() {
	netem_on "h$1" "e$2" loss "$3%"
}

fab_loss_off() {
	netem_off "h$1" "e$2"
}

# fab_sniff NS DEV SECONDS: the MRC packets (UDP destination port 4791,
# IPv4 or IPv6, after any extension headers such as an SRH) arriving on
# DEV in NS during SECONDS, counted per UDP source port: lines "SPORT
# PACKETS OPS", OPS the MRC opcodes seen on the port (hex, comma
# separated: 03 WRITE, 10 ACK, 20 PROBE_REQ, ...).  A sample (the packet socket may drop under load), good for
# which EVs exist and their relative weight.
FAB_SNIFF_PY='
import ctypes, os, socket, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
ns, dev, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
fd = os.open("/var/run/netns/" + ns, os.O_RDONLY)
if libc.setns(fd, 0x40000000) != 0:
    sys.exit("setns " + ns + ": " + os.strerror(ctypes.get_errno()))
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0003))
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.bind((dev, 0x0003))
s.settimeout(0.2)
count = {}
ops = {}
end = time.monotonic() + secs
while time.monotonic() < end:
    try:
        pkt, addr = s.recvfrom(128)
    except socket.timeout:
        continue
    if addr[2] == socket.PACKET_OUTGOING:
        continue
    v = pkt[0] >> 4
    if v == 4:
        off, nh = (pkt[0] & 15) * 4, pkt[9]
    elif v == 6:
        off, nh = 40, pkt[6]
        while nh in (0, 43, 60) and off + 2 <= len(pkt):
            nh, off = pkt[off], off + (pkt[off + 1] + 1) * 8
    else:
        continue
    if nh != 17 or off + 4 > len(pkt):
        continue
    sport, dport = struct.unpack_from("!HH", pkt, off)
    if dport == 4791:
        count[sport] = count.get(sport, 0) + 1
        if off + 10 <= len(pkt):
            ops.setdefault(sport, set()).add(pkt[off + 9])
for p in sorted(count):
    print(p, count[p], ",".join("%02x" % o for o in sorted(ops.get(p, ()))) or "-")
'
fab_sniff() {
	"$FAB_PY" -S -c "$FAB_SNIFF_PY" "$@"
}

# fab_ecmp_spine P L DST SPORT: the spine (number) leaf L of plane P
# forwards a UDP packet from host L to DST with source port SPORT through,
# as the kernel's own multipath hash decides ("ip route get" of a
# forwarded packet).
fab_ecmp_spine() {
	local p=$1 l=$2 dst=$3 sport=$4 src
	case $dst in
	*:*) src=$(fab_addr "$l" "$p") ;;
	*) src=$(fab_addr4 "$l" "$p") ;;
	esac
	ip -n "p${p}l$l" route get "$dst" from "$src" iif eh ipproto udp \
		sport "$sport" dport 4791 | sed -nE 's/.* dev s([0-9]+) .*/\1/p' | head -n 1
}

# fab_balanced_evs N: the words of "mrcctl ev-profile add ... format udp"
# for an explicit profile that balances h2's traffic over the spines: for
# each plane, source ports from 0xc000 up that the leaf in front of h2
# hashes (fab_ecmp_spine) until every spine has N of them.  Prints
# "ev plane P value PORT" for each; fails if 128 ports do not fill every
# spine.
fab_balanced_evs() {
	local n=$1 p s t sport full
	local -a words=()
	for p in $(seq "$FAB_PLANES"); do
		local -A picked=()
		full=0
		for sport in $(seq 49152 49279); do
			s=$(fab_ecmp_spine "$p" 2 "$(fab_addr 1 "$p")" "$sport")
			[[ $s =~ ^[0-9]+$ ]] || continue
			[ "${picked[$s]:-0}" -lt "$n" ] || continue
			picked[$s]=$((${picked[$s]:-0} + 1))
			words+=(ev plane "$p" value "$sport")
			full=1
			for t in $(seq "$FAB_SPINES"); do
				[ "${picked[$t]:-0}" -eq "$n" ] || full=0
			done
			[ $full = 1 ] && break
		done
		unset picked
		[ $full = 1 ] || return 1
	done
	echo "${words[@]}"
}

# fab_flow_spines P L DST SPORT LABEL...: per IPv6 flow LABEL (decimal or
# 0x hex) the spine (number; 0 if none clearly) that leaf L of plane P
# forwards a UDP packet from host L to DST with source port SPORT and
# destination port 4791 through, one "LABEL SPINE" line each (LABEL as
# given).  "ip route get" cannot say it: 6.1's RTM_GETROUTE takes no flow
# label (only the traffic class, from rtm_tos).  So host L sends the
# leaf, per label, 10 such packets of hop limit 2 (raw IPv6: an ordinary
# socket sends a flow label only after IPV6_FLOWLABEL_MGR) and the
# spine whose "lL" rx_packets grows by them is the one the leaf's own
# multipath hash picked; the spine drops them (hop limit exceeded), so
# they never reach DST.
FAB_FLOW_PROBE_PY='
import ctypes, os, socket, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
def enter(ns):
    fd = os.open("/var/run/netns/" + ns, os.O_RDONLY)
    if libc.setns(fd, 0x40000000) != 0:
        sys.exit("setns " + ns + ": " + os.strerror(ctypes.get_errno()))
    os.close(fd)
host, src, dst, sport, dev, spines = sys.argv[1:7]
spines, labels, n = spines.split(), sys.argv[7:], 10
def rx():
    r = []
    for ns in spines:
        enter(ns)
        with open("/proc/self/net/dev") as f:
            r.append(next(int(l.split(":", 1)[1].split()[1]) for l in f
                          if l.split(":", 1)[0].strip() == dev))
    return r
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s & 0xffff) or 0xffff
enter(host)
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
sa, da = socket.inet_pton(socket.AF_INET6, src), socket.inet_pton(socket.AF_INET6, dst)
body = bytes(16)
for lab in labels:
    ulen = 8 + len(body)
    ck = csum(sa + da + struct.pack("!II", ulen, 17) +
              struct.pack("!HHHH", int(sport, 0), 4791, ulen, 0) + body)
    pkt = (struct.pack("!IHBB", 6 << 28 | int(lab, 0), ulen, 17, 2) + sa + da +
           struct.pack("!HHHH", int(sport, 0), 4791, ulen, ck) + body)
    old = rx()
    for i in range(n):
        s.sendto(pkt, (dst, 0))
    end = time.monotonic() + 2
    while True:
        d = [b - a for a, b in zip(old, rx())]
        if sum(d) >= n or time.monotonic() > end:
            break
        time.sleep(0.02)
    best = max(range(len(d)), key=lambda i: d[i])
    ok = d[best] >= n and sum(d) - d[best] < n // 2
    print(lab, best + 1 if ok else 0)
'
fab_flow_spines() {
	local p=$1 l=$2 dst=$3 sport=$4 s spines=()
	shift 4
	for s in $(seq "$FAB_SPINES"); do
		spines+=("p${p}s$s")
	done
	"$FAB_PY" -S -c "$FAB_FLOW_PROBE_PY" "h$l" "$(fab_addr "$l" "$p")" "$dst" \
		"$sport" "l$l" "${spines[*]}" "$@"
}

# fab_flow_count NS DEV SPORT LABEL...: count the IPv6 MRC packets (UDP,
# no extension header, destination port 4791, source port SPORT) arriving
# on DEV in NS with each flow LABEL: one tc u32 filter per label on the
# clsact ingress hook (preference 100, 101, ... in the order given), its
# action "pass" counting.  fab_flow_counts NS DEV N prints "PACKETS BYTES"
# of the first N of them, one line each, in that order; fab_flow_count_off
# NS DEV removes them.
fab_flow_count() {
	local ns=$1 dev=$2 sport=$3 f rc i=0 lab
	shift 3
	f=$(mktemp) || return 1
	echo "qdisc replace dev $dev clsact" >"$f"
	for lab in "$@"; do
		# IPv6 word 0 (label), next header, UDP ports.
		printf '%s %d %s 0x%05x 0x000fffff at 0 %s 0x%08x 0xffffffff at 40 %s\n' \
			"filter add dev $dev ingress pref" $((100 + i)) "protocol ipv6 u32 match u32" \
			$((lab)) "match u8 17 0xff at 6 match u32" $(((sport << 16) | 4791)) \
			"action pass" >>"$f"
		i=$((i + 1))
	done
	ns_exec "$ns" tc -batch "$f"
	rc=$?
	rm -f "$f"
	return $rc
}

fab_flow_counts() {
	ns_exec "$1" tc -s -j filter show dev "$2" ingress |
		"$FAB_PY" -S -c '
import json, sys
n = int(sys.argv[1])
c = {}
for f in json.load(sys.stdin):
    for a in f.get("options", {}).get("actions", []):
        st = a.get("stats", {})
        p, b = c.get(f["pref"], (0, 0))
        c[f["pref"]] = (p + st.get("packets", 0), b + st.get("bytes", 0))
for i in range(n):
    print(*c.get(100 + i, (0, 0)))' "$3"
}

fab_flow_count_off() {
	fab_blackhole_off "$@"
}

# ---------------------------------------------------------------------
# Traffic.

# fab_bw_start [ARG...]: ib_write_bw (h1 the server, h2 the client,
# ARGs to both) in the background, running until fab_bw_stop; it prints a
# result row every 2 s (--run_infinitely -D 2).  Not a fixed -D run:
# under TCG, perftest's duration runs were seen to end after half their
# time (exit 0, "BW average 0.00" with the CPU-clock warning "Correlation
# coefficient r^2 < 0.9"), and a run that ends before the measurement
# window measures nothing.  Returns once h1 receives (fab_bw_flowing), or
# non-zero after 60 s.
FAB_BW_PORT=18515
fab_bw_start() {
	_fab_bw_slog=$(mktemp) && _fab_bw_clog=$(mktemp) || return 1
	_fab_bw_args=(-x "$FAB_GID" -F -p "$FAB_BW_PORT" --run_infinitely -D 2 "$@")
	ns_bg h1 timeout -k 5 900 stdbuf -oL ib_write_bw -d "$H1_DEV" "${_fab_bw_args[@]}" \
		</dev/null >"$_fab_bw_slog" 2>&1
	_fab_bw_spid=$BG_PID
	wait_listen h1 "$FAB_BW_PORT" 60 || return 1
	ns_bg h2 timeout -k 5 900 stdbuf -oL ib_write_bw -d "$H2_DEV" "${_fab_bw_args[@]}" \
		"$(fab_addr4 1 1)" </dev/null >"$_fab_bw_clog" 2>&1
	_fab_bw_cpid=$BG_PID
	local rx0
	rx0=$(fab_rx_total)
	wait_for 60 _fab_rx_grew "$rx0" 1000000
}

# fab_rx_total: bytes h1 received on all its plane netdevs.
fab_rx_total() {
	fab_stats h1 | awk '$2 ~ /^e[0-9]+$/ { s += $3 } END { printf "%.0f\n", s }'
}

_fab_rx_grew() {
	[ "$(fab_rx_total)" -gt $(($1 + $2)) ]
}

# fab_bw_running: the ib_write_bw client still runs.
fab_bw_running() {
	kill -0 "$_fab_bw_cpid" 2>/dev/null
}

# fab_bw_stop DESC: checks that the client still ran (it never ends by
# itself: an exit is an error) and reported moving data (result rows
# whose iteration counts add up to more than 0; the MB/s column is not
# used, perftest's clock calibration fails now and then under TCG), then
# stops both ends.
fab_bw_stop() {
	local desc=$1 iters rc
	if fab_bw_running; then
		ok "$desc: ib_write_bw ran until stopped"
	else
		wait "$_fab_bw_cpid"
		rc=$?
		_mrc_out=$(cat "$_fab_bw_clog")
		not_ok "$desc: ib_write_bw ran until stopped"
		_mrc_explain "the client ended by itself (status $rc); output:" \
			ib_write_bw -d "$H2_DEV" "${_fab_bw_args[@]}"
	fi
	kill "$_fab_bw_cpid" "$_fab_bw_spid" 2>/dev/null
	wait "$_fab_bw_cpid" "$_fab_bw_spid" 2>/dev/null
	iters=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 { n += $2 } END { print n + 0 }' \
		"$_fab_bw_clog")
	_mrc_out=$(cat "$_fab_bw_clog")
	if [ "$iters" -gt 0 ]; then
		ok "$desc: ib_write_bw reported $iters writes"
		diag "$(grep -E "^[[:space:]]*[0-9]+[[:space:]]+[0-9]+[[:space:]]" "$_fab_bw_clog" | tail -n 3)"
	else
		not_ok "$desc: ib_write_bw reported writes"
		_mrc_explain "no result row with writes; output:" \
			ib_write_bw -d "$H2_DEV" "${_fab_bw_args[@]}"
	fi
	rm -f "$_fab_bw_slog" "$_fab_bw_clog"
}

# fab_verify_start [MRC_VERIFY_OPTION...]: mrc_verify, server h1, client
# h2, in the background (the client's options); fab_verify_running: it
# still runs; fab_verify_stop: end a --until-stopped run after the batch in
# flight (SIGINT; timeout(1) passes it on); fab_verify_wait DESC: both ends
# exit 0 with a clean summary (VERIFY_CLEAN_RE), i.e. zero corrupted bytes
# and failed completions.
fab_verify_start() {
	local t=${VERBS_TIMEOUT:-240}
	_fab_vf_slog=$(mktemp) && _fab_vf_clog=$(mktemp) || return 1
	ns_bg h1 timeout -k 5 $((t + 20)) "$VERBS_BIN/mrc_verify" -d "$H1_DEV" -g "$FAB_GID" \
		--timeout="$t" </dev/null >"$_fab_vf_slog" 2>&1
	_fab_vf_spid=$BG_PID
	_fab_vf_args=(-d "$H2_DEV" -g "$FAB_GID" --timeout="$t" "$@" "$(fab_addr4 1 1)")
	ns_bg h2 timeout -k 5 $((t + 20)) "$VERBS_BIN/mrc_verify" "${_fab_vf_args[@]}" \
		</dev/null >"$_fab_vf_clog" 2>&1
	_fab_vf_cpid=$BG_PID
	wait_for 60 grep -q "^mrc_verify: client on" "$_fab_vf_clog"
}

fab_verify_running() {
	kill -0 "$_fab_vf_cpid" 2>/dev/null
}

fab_verify_stop() {
	kill -INT "$_fab_vf_cpid" 2>/dev/null
}

fab_verify_wait() {
	local desc=$1 rc
	wait "$_fab_vf_cpid"
	rc=$?
	_mrc_out=$(cat "$_fab_vf_clog")
	if [ $rc -eq 0 ] && printf '%s\n' "$_mrc_out" | grep -Eq -- "$VERIFY_CLEAN_RE"; then
		ok "$desc: client"
		diag "$(tail -n 1 "$_fab_vf_clog")"
	else
		not_ok "$desc: client"
		_mrc_explain "exit status $rc; output:" mrc_verify "${_fab_vf_args[@]}"
	fi
	wait_for 30 _peer_gone "$_fab_vf_spid" || kill "$_fab_vf_spid" 2>/dev/null
	wait "$_fab_vf_spid"
	rc=$?
	_mrc_out=$(cat "$_fab_vf_slog")
	if [ $rc -eq 0 ] && printf '%s\n' "$_mrc_out" | grep -Eq -- "$VERIFY_CLEAN_RE"; then
		ok "$desc: server"
	else
		not_ok "$desc: server"
		_mrc_explain "exit status $rc; output:" mrc_verify -d "$H1_DEV" -g "$FAB_GID"
	fi
	rm -f "$_fab_vf_slog" "$_fab_vf_clog"
}

# fab_udp_spray NS DST PORTS COUNT: COUNT UDP datagrams of 64 bytes from NS
# to DST (port 9, discard) with source ports 0xc000.. (PORTS of them, in
# turn): ordinary traffic with many flows, to check a fabric's ECMP
# without mrc.  Unconnected socket: the skb carries no socket hash, so the
# routers hash the packet's own 5-tuple.
FAB_SPRAY_PY='
import socket, sys
dst, ports, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
socks = []
for i in range(ports):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind(("", 0xc000 + i))
    socks.append(s)
for i in range(count):
    try:
        socks[i % ports].sendto(b"x" * 64, (dst, 9))
    except OSError:
        pass
'
fab_udp_spray() {
	ns_exec "$1" "$FAB_PY" -S -c "$FAB_SPRAY_PY" "$2" "$3" "$4"
}
