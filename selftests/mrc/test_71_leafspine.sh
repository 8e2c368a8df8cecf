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
#     they are from even are printed).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

TOL=20
PLANES=2
SPINES=2

mrc_load || done_testing
if fabric_leafspine $PLANES $SPINES; then
	ok "fabric: $PLANES planes x $SPINES spines"
else
	not_ok "fabric: $PLANES planes x $SPINES spines"
	done_testing
fi
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
	n=$(awk '$1 >= 49152 && $1 <= 65535' "$tmp/sniff.$p" | wc -l)
	check "plane $p carries 16 EVs (distinct source ports in 0xc000..0xffff: $n)" \
		test "$n" -eq 16
	# Expected share of each spine: the sampled packets of the source
	# ports the leaf hashes to it.
	declare -A w=()
	total=0
	while read -r sport cnt; do
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

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
