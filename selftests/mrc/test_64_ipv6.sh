#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# RC traffic between IPv6 GIDs: a global address (fd00::/64) and the
# link-local one (fe80::, routed by the GID's netdev), with the stock
# ibv_rc_pingpong and with verified data under 1% loss.  The packets must
# really be IPv6: h1's IPv6 UDP counters grow, its IPv4 ones do not.
# selftest-timeout: 600
. "$(dirname "$0")/lib.sh"

require_cmd rdma ibv_devinfo ibv_rc_pingpong ss "$VERBS_BIN/mrc_verify"
mrc_load || done_testing
check "two hosts h1/h2 with $H1_DEV/$H2_DEV on e0" mrc_two_hosts || done_testing
check "h1 e0: fd00::1/64" ip -n h1 addr add fd00::1/64 dev e0 nodad
check "h2 e0: fd00::2/64" ip -n h2 addr add fd00::2/64 dev e0 nodad

# gid_index NS DEV REGEX: the index of DEV's first RoCE v2 GID matching.
gid_index() {
	ns_exec "$1" ibv_devinfo -v -d "$2" |
		sed -nE "s/^[[:space:]]*GID\[ *([0-9]+)\]:[[:space:]]+$3, RoCE v2$/\1/p" |
		head -n 1
}
check "h1 $H1_DEV has a GID for fd00::1" \
	wait_output "fd00::1, RoCE v2" ns_exec h1 ibv_devinfo -v -d "$H1_DEV"
check "h2 $H2_DEV has a GID for fd00::2" \
	wait_output "fd00::2, RoCE v2" ns_exec h2 ibv_devinfo -v -d "$H2_DEV"
g1=$(gid_index h1 "$H1_DEV" 'fd00::1')
g2=$(gid_index h2 "$H2_DEV" 'fd00::2')
ll1=$(gid_index h1 "$H1_DEV" 'fe80:[0-9a-f:]+')
ll2=$(gid_index h2 "$H2_DEV" 'fe80:[0-9a-f:]+')
diag "GID indices: global h1 $g1 h2 $g2, link-local h1 $ll1 h2 $ll2"
check "the global GIDs have the same index on both hosts" \
	test -n "$g1" -a "$g1" = "$g2"
check "the link-local GIDs have the same index on both hosts" \
	test -n "$ll1" -a "$ll1" = "$ll2"

# udp_in NS: InDatagrams of IPv4 and IPv6 UDP in NS.
udp_in() {
	ns_exec "$1" nstat -az UdpInDatagrams Udp6InDatagrams 2>/dev/null |
		awk '$1 == "UdpInDatagrams" { v4 = $2 }
		     $1 == "Udp6InDatagrams" { v6 = $2 }
		     END { print v4 + 0, v6 + 0 }'
}

# pingpong GID DESC: ibv_rc_pingpong between the hosts on GID index GID
# (the connection details travel over TCP/IPv4, the RDMA traffic uses the
# GIDs).
pingpong() {
	local gid=$1 desc=$2 spid rc
	ns_bg h1 timeout 60 ibv_rc_pingpong -d "$H1_DEV" -g "$gid" -n 50 \
		</dev/null >/dev/null 2>&1
	spid=$BG_PID
	wait_listen h1 18515
	check_output "ibv_rc_pingpong over $desc: client" "50 iters in" \
		ns_exec h2 timeout 60 ibv_rc_pingpong -d "$H2_DEV" -g "$gid" \
		-n 50 10.0.0.1
	# Not inside check: its command runs in a subshell without children.
	wait "$spid"
	rc=$?
	check "ibv_rc_pingpong over $desc: server (exit $rc)" test "$rc" -eq 0
}

read -r v4a v6a < <(udp_in h1)
pingpong "$g1" "fd00::/64"
read -r v4b v6b < <(udp_in h1)
check "the global-address run was IPv6 (Udp6InDatagrams +$((v6b - v6a)))" \
	test $((v6b - v6a)) -ge 100
check "... and not IPv4 (UdpInDatagrams +$((v4b - v4a)))" \
	test $((v4b - v4a)) -lt 10

pingpong "$ll1" "link-local fe80::"

check "h1 e0: netem loss 1%" netem_on h1 e0 loss 1%
VERBS_GID=$g1 verify_pair "verified data over IPv6 with 1% loss" \
	--count=60 --max-size=1M --seed=64
check "h1 e0: netem off" netem_off h1 e0

check "the namespaces go, then rmmod mrc works" mrc_unload_wait 20
done_testing
