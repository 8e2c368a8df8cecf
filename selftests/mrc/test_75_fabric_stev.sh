#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout: 300
#
# STEV EVs (flow label = EV >> 12, UDP source port 0xf000 | low 12 bits)
# in a routed IPv6 fabric (lib_fabric.sh fabric_leafspine 2 2 v6, whose
# routers hash the flow label with the ports and addresses).  Every EV of
# this test has the same low 12 bits, so all of h2's MRC packets leave
# with one UDP source port: whatever spreads them over the spines is the
# flow label alone.
#
# First the fabric: per plane, 32 candidate flow labels are probed at the
# leaf in front of h2 (fab_flow_spines: hop-limited packets with that
# label and the EVs' source port; the kernel's "ip route get" takes no flow
# label), which must hash them to both spines.  From the probed labels:
#   profile 75 (exp, stev): per plane 8 EVs, 3 on one spine and 5 on the
#     other (plane 1: 3 on spine 1; plane 2: 3 on spine 2);
#   profile 76 (exp, stev): per plane 4 other EVs, all on one spine.
# With h2's route to h1 over both planes naming profile 75, during
# ib_write_bw (h2 writes to h1, IPv6 GIDs):
#   - each spine carries within 20% of its predicted share (3/8 or 5/8;
#     an even split or one spine only fails);
#   - on the wire (tc u32 counters at the leaf in front of h2, matching
#     label, UDP, source port and port 4791) each of the plane's 8 labels
#     carries packets and together they are >= 95% of all the packets
#     the leaf receives from h2;
# and a verified mrc_verify transfer is clean.  Then a verified transfer of
# about 7 MB over profile 76 (the route replaced): the pinned spine of each
# plane carries > 1 MB, the other < 1% of that.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fabric.sh"

TOL=20
WINDOW=4
LOW=0x4b7			# the low 12 bits of every EV
SPORT=$((0xf000 | LOW))		# hence the one UDP source port
NCAND=32
SPREAD=75
PINNED=76

require_cmd ib_write_bw "$MRCCTL" "$VERBS_BIN/mrc_verify"
fabric_setup "fabric: 2 planes x 2 spines, IPv6, flow label hashed" 2 2 v6
tmp=$(mktemp -d) || exit 1
h1a=$(fab_addr 1 1)
h2a=$(fab_addr 2 1)

# stev_value LABEL: the STEV EV of flow label LABEL.
stev_value() {
	printf '0x%08x' $((($1 << 12) | LOW))
}

# --- the fabric: which spine each candidate label hashes to ----------------------
# lab[P.S] the candidate labels of plane P the leaf hashes to spine S, in
# probe order; spread[P] and pinned[P] the labels of profiles 75 and 76.
declare -A lab=() spread=() pinned=() pinspine=() nspread=()
# Both planes at once (separate namespaces and counters): the guest has
# two CPUs and each probe run is a slow Python process under TCG.
for p in 1 2; do
	cands=()
	for i in $(seq $NCAND); do
		cands+=("$(printf '0x%05x' $(((p << 16) + i)))")
	done
	fab_flow_spines "$p" 2 "$(fab_addr 1 "$p")" $SPORT "${cands[@]}" >"$tmp/probe.$p" 2>&1 &
done
wait
for p in 1 2; do
	lab[$p.0]='' lab[$p.1]='' lab[$p.2]='' n=0
	while read -r l sp; do
		lab[$p.$sp]+="$l "
		n=$((n + 1))
	done <"$tmp/probe.$p"
	read -ra l0 <<<"${lab[$p.0]}"
	n0=${#l0[@]}
	check "plane $p: each of $NCAND probed labels crosses one spine ($n answers, $n0 unclear)" \
		test "$n" -eq $NCAND -a "$n0" -eq 0 || diag "probes (label spine): $(tr '\n' ' ' <"$tmp/probe.$p")"
	read -ra l1 <<<"${lab[$p.1]}"
	read -ra l2 <<<"${lab[$p.2]}"
	diag "plane $p: labels on spine 1: ${#l1[@]}, on spine 2: ${#l2[@]} (source port $SPORT)"
	# Plane 1: 3 EVs on spine 1, 5 on spine 2; plane 2 the other way.
	if [ "$p" = 1 ]; then a=3 b=5; else a=5 b=3; fi
	check "plane $p: one source port, the label alone reaches both spines (needs >= $a and >= $b)" \
		test "${#l1[@]}" -ge $a -a "${#l2[@]}" -ge $b || continue
	spread[$p]="${l1[*]:0:a} ${l2[*]:0:b}"
	nspread[$p]="$a $b"
	# Profile 76 pins the plane to the spine with more labels left.
	if [ $((${#l1[@]} - a)) -ge $((${#l2[@]} - b)) ]; then
		pinspine[$p]=1
		pinned[$p]="${l1[*]:a:4}"
	else
		pinspine[$p]=2
		pinned[$p]="${l2[*]:b:4}"
	fi
	read -ra l1 <<<"${pinned[$p]}"
	check "plane $p: 4 more labels on spine ${pinspine[$p]} for the pinned profile" \
		test "${#l1[@]}" -eq 4
done
if [ ${#spread[@]} -ne 2 ] || [ ${#pinned[@]} -ne 2 ]; then
	diag "not enough labels per spine; the rest needs them"
	done_testing
fi

# --- the profiles and the route --------------------------------------------------
M1() { "$MRCCTL" -n h1 "$@"; }
M2() { "$MRCCTL" -n h2 "$@"; }

# online PROF: offline, then online (validated; routes may name it).
online() {
	M2 ev-profile set dev "$H2_DEV" id "$1" state offline &&
		M2 ev-profile set dev "$H2_DEV" id "$1" state online
}

# route_h2 PROF: h2's route to h1 over both planes with EV profile PROF.
route_h2() {
	M2 route add "$h1a" dev "$H2_DEV" plane 1 via "$h1a" plane 2 via "$(fab_addr 1 2)" \
		ev-profile "$1"
}

for prof in $SPREAD $PINNED; do
	evs=()
	for p in 1 2; do
		if [ "$prof" = $SPREAD ]; then
			read -ra labs <<<"${spread[$p]}"
		else
			read -ra labs <<<"${pinned[$p]}"
		fi
		for l in "${labs[@]}"; do
			evs+=(ev plane "$p" value "$(stev_value "$l")")
		done
	done
	check "h2: ev-profile $prof, exp, stev, $((${#evs[@]} / 5)) EVs with source port $SPORT" \
		M2 ev-profile add dev "$H2_DEV" id "$prof" mode exp format stev "${evs[@]}"
	check "h2: profile $prof online" online "$prof"
done
check "h1: route to h2 over both planes (default EVs)" \
	M1 route add "$h2a" dev "$H1_DEV" plane 1 via "$h2a" \
	plane 2 via "$(fab_addr 2 2)"
check "h2: route to h1 over both planes with ev-profile $SPREAD" route_h2 $SPREAD

# --- spreading by flow label ------------------------------------------------------
for p in 1 2; do
	# shellcheck disable=SC2086 # the labels are words
	check "plane $p: tc counters per profile label at the leaf in front of h2" \
		fab_flow_count "p${p}l2" eh $SPORT ${spread[$p]}
done
fab_stats p1l2 p2l2 >"$tmp/0"
fab_bw_start || diag "ib_write_bw did not start moving data"
sleep 2
fab_snapshot "$tmp/a"
sleep "$WINDOW"
fab_snapshot "$tmp/b"
fab_bw_stop "STEV EVs, profile $SPREAD"
fab_stats p1l2 p2l2 >"$tmp/c"

for p in 1 2; do
	read -r a b <<<"${nspread[$p]}"
	got=()
	for s in 1 2; do
		got+=("$(fab_delta "$tmp/a" "$tmp/b" "p${p}s$s" l2 rx_bytes)")
	done
	FAB_EXPECT="$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f %.4f", a / (a + b), b / (a + b) }')" \
		check "plane $p: bytes per spine within $TOL% of the labels' predicted share ($a:$b EVs)" \
		fab_shares_ok "plane $p spine rx bytes" $TOL "${got[@]}" && diag "$_mrc_out"

	fab_flow_counts "p${p}l2" eh $((a + b)) >"$tmp/count.$p"
	read -ra labs <<<"${spread[$p]}"
	rows=0 idle=0 labelled=0 line=
	while read -r pk _; do
		line+="${labs[rows]}:$pk "
		[ "$pk" -gt 0 ] || idle=$((idle + 1))
		labelled=$((labelled + pk))
		rows=$((rows + 1))
	done <"$tmp/count.$p"
	diag "plane $p: packets per label at the leaf: $line"
	check "plane $p: each of the $((a + b)) labels is on the wire ($idle without a packet)" \
		test "$rows" -eq $((a + b)) -a "$idle" -eq 0
	all=$(fab_delta "$tmp/0" "$tmp/c" "p${p}l2" eh rx_packets)
	check "plane $p: the profile's labels and port $SPORT on >= 95% of the leaf's packets from h2 ($labelled of $all)" \
		test $((labelled * 100)) -ge $((all * 95)) -a "$all" -gt 1000
done

fab_verify_start --count=60 --max-size=1M --seed=75 || diag "mrc_verify did not report its start"
fab_verify_wait "verified transfer over profile $SPREAD's STEV EVs"

# --- pinned: all EVs of a plane on one spine -------------------------------------
check "h2: route to h1 deleted" M2 route del "$h1a" dev "$H2_DEV"
check "h2: route to h1 over both planes with ev-profile $PINNED" route_h2 $PINNED
fab_snapshot "$tmp/a"
fab_verify_start --count=100 --max-size=1M --seed=76 || diag "mrc_verify did not report its start"
fab_verify_wait "verified transfer over profile $PINNED's STEV EVs"
fab_snapshot "$tmp/b"
for p in 1 2; do
	on=${pinspine[$p]}
	off=$((3 - on))
	bon=$(fab_delta "$tmp/a" "$tmp/b" "p${p}s$on" l2 rx_bytes)
	boff=$(fab_delta "$tmp/a" "$tmp/b" "p${p}s$off" l2 rx_bytes)
	diag "plane $p, the transfer: spine $on $bon bytes, spine $off $boff bytes"
	check "plane $p: the pinned spine $on carries the data ($bon bytes)" test "$bon" -gt 1000000
	check "plane $p: spine $off carries nothing ($boff bytes < 1% of spine $on's)" \
		test $((boff * 100)) -lt "$bon"
done

rm -rf "$tmp"
check "the namespaces go, then rmmod mrc works" mrc_unload_wait 30
done_testing
