#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# Spraying through a routed fabric: 2 planes x 2 spines (lib_fabric.sh
# fabric_leafspine 2 2), plain Linux routers hashing the UDP 5-tuple for
# ECMP.  First the fabric itself, with ordinary traffic: ping over each
# plane, and UDP from 64 source ports reaches h1 over both spines of each
# plane.  Then ib_write_bw (h2 writes to h1) with a route over both
# planes:
#   - each plane carries within 20% of an even share of the bytes (the
#     leaves' counters of the port facing h2);
#   - h2 sends each plane's packets over 16 EVs (distinct UDP source ports
#     in 0xc000..0xffff, sampled with a packet socket on the leaf);
#   - each spine carries within 20% of the share the routers' own hash
#     gives it: the kernel's "ip route get" names the spine of every
#     sampled source port, so the expected share of a spine is the weight
#     of the EVs hashed to it (with 16 EVs over 2 spines an even split is
#     a matter of the boot's hash key, not of MRC; the shares and how far
#     they are from even are printed);
#   - with an explicit EV profile whose EVs are chosen by that hash, 8 per
#     spine and plane, each spine carries within 20% of an even share.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

TOL=20
PLANES=2
SPINES=2

require_cmd ib_write_bw "$MRCCTL"
fabric_setup "fabric: $PLANES planes x $SPINES spines" $PLANES $SPINES
tmp=$(mktemp -d) || exit 1

# --- the fabric alone ------------------------------------------------------
for p in $(seq $PLANES); do
	check "ping h2 -> h1 over plane $p" ns_exec h2 ping -c 1 -W 5 "$(fab_addr 1 "$p")"
done
fab_snapshot "$tmp/a"
for p in $(seq $PLANES); do
	fab_udp_spray h2 "$(fab_addr 1 "$p")" 64 1000
done
fab_snapshot "$tmp/b"
for p in $(seq $PLANES); do
	for s in $(seq $SPINES); do
		n=$(fab_delta "$tmp/a" "$tmp/b" "p${p}s$s" l1 tx_packets)
		check "plain UDP from 64 ports: plane $p spine $s forwards to h1's leaf ($n packets)" \
			test "$n" -ge 100
	done
done

# --- ib_write_bw over both planes ---------------------------------------------
check "routes over planes 1-$PLANES on both hosts" fabric_routes
fab_bw_start || diag "ib_write_bw did not start moving data"
# Skip the start (first window), then count for a window and sample the
# EVs of each plane at the leaf in front of h2.
sleep 2
fab_snapshot "$tmp/a"
sniffers=()
for p in $(seq $PLANES); do
	fab_sniff "p${p}l2" eh 4 >"$tmp/sniff.$p" 2>&1 &
	sniffers+=($!)
done
wait "${sniffers[@]}"
fab_snapshot "$tmp/b"
fab_bw_stop "route over $PLANES planes"

planes=()
for p in $(seq $PLANES); do
	planes+=("$(fab_delta "$tmp/a" "$tmp/b" "p${p}l2" eh rx_bytes)")
done
check "bytes per plane (leaf in front of h2) within $TOL% of an even share" \
	fab_shares_ok "plane rx bytes" $TOL "${planes[@]}" && diag "$_mrc_out"

for p in $(seq $PLANES); do
	diag "plane $p: sampled packets per UDP source port: $(tr '\n' ' ' <"$tmp/sniff.$p")"
	# An EV of the spray carries hundreds of the sampled packets; a port
	# seen once or twice is not one of them.  Those single packets are
	# ACKs (opcode 10): h2's QP acknowledging the few requests h1's QP
	# sends it, each on another EV of that direction; counted apart, with
	# their opcodes, in the diagnostic.
	n=$(awk '$1 >= 49152 && $1 <= 65535 && $2 >= 10' "$tmp/sniff.$p" | wc -l)
	stray=$(awk '$1 >= 49152 && $1 <= 65535 && $2 < 10' "$tmp/sniff.$p" | wc -l)
	[ "$stray" -eq 0 ] || diag "plane $p: $stray source ports with fewer than 10 sampled packets (port count opcodes): $(awk '$1 >= 49152 && $2 < 10 { printf "%s %s %s; ", $1, $2, $3 }' "$tmp/sniff.$p")"
	check "plane $p carries 16 EVs (distinct source ports in 0xc000..0xffff with >= 10 packets: $n)" \
		test "$n" -eq 16
	# Expected share of each spine: the sampled packets of the source
	# ports the leaf hashes to it.
	declare -A w=()
	total=0
	while read -r sport cnt _; do
		[[ $sport =~ ^[0-9]+$ ]] || continue
		s=$(fab_ecmp_spine "$p" 2 "$(fab_addr 1 "$p")" "$sport")
		w[$s]=$((${w[$s]:-0} + cnt))
		total=$((total + cnt))
	done <"$tmp/sniff.$p"
	exp=() got=()
	for s in $(seq $SPINES); do
		exp+=("$(awk -v a="${w[$s]:-0}" -v t="$total" 'BEGIN { printf "%.4f", t ? a / t : 0 }')")
		got+=("$(fab_delta "$tmp/a" "$tmp/b" "p${p}s$s" l2 rx_bytes)")
	done
	unset w
	FAB_EXPECT="${exp[*]}" check "plane $p: bytes per spine within $TOL% of the share the ECMP hash gives it" \
		fab_shares_ok "plane $p spine rx bytes" $TOL "${got[@]}" && diag "$_mrc_out"
	_mrc_run fab_shares_ok "plane $p spine rx bytes" $TOL "${got[@]}"
	diag "(against an even share: $_mrc_out)"
done

# --- an EV profile that balances the spines -----------------------------------
# What an operator does for an even split over a hashing fabric: an
# explicit UDP profile whose EVs are chosen by the routers' own hash, 8
# per spine on each plane.  Then every spine must carry within TOL% of an
# even share.
M2() { "$MRCCTL" -n h2 "$@"; }
BAL=71
PER_SPINE=8
read -ra evs <<<"$(fab_balanced_evs $PER_SPINE)"
diag "ev-profile $BAL: ${evs[*]}"
check "h2: ev-profile $BAL, exp, udp, $PER_SPINE EVs per spine and plane" \
	eval 'M2 ev-profile add dev "$H2_DEV" id $BAL mode exp format udp "${evs[@]}" &&
		test ${#evs[@]} -eq $((PLANES * SPINES * PER_SPINE * 5))'
check "h2: profile $BAL online" eval \
	'M2 ev-profile set dev "$H2_DEV" id $BAL state offline &&
	 M2 ev-profile set dev "$H2_DEV" id $BAL state online'
hops=()
for p in $(seq $PLANES); do
	hops+=(plane "$p" via "$(fab_addr 1 "$p")")
done
check "h2: route to h1 over planes 1-$PLANES with ev-profile $BAL" eval \
	'M2 route del "$(fab_addr 1 1)" dev "$H2_DEV" &&
	 M2 route add "$(fab_addr 1 1)" dev "$H2_DEV" "${hops[@]}" ev-profile $BAL'
fab_bw_start || diag "ib_write_bw did not start moving data"
sleep 2
fab_snapshot "$tmp/c"
sleep 4
fab_snapshot "$tmp/d"
fab_bw_stop "route over $PLANES planes, ev-profile $BAL"
planes=()
for p in $(seq $PLANES); do
	planes+=("$(fab_delta "$tmp/c" "$tmp/d" "p${p}l2" eh rx_bytes)")
	got=()
	for s in $(seq $SPINES); do
		got+=("$(fab_delta "$tmp/c" "$tmp/d" "p${p}s$s" l2 rx_bytes)")
	done
	check "ev-profile $BAL: plane $p, bytes per spine within $TOL% of an even share" \
		fab_shares_ok "plane $p spine rx bytes" $TOL "${got[@]}" && diag "$_mrc_out"
done
check "ev-profile $BAL: bytes per plane within $TOL% of an even share" \
	fab_shares_ok "plane rx bytes" $TOL "${planes[@]}" && diag "$_mrc_out"

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
