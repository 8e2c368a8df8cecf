#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 900
#
# EV and CC profiles (mrcctl ev-profile, ev, cc-profile): add in every mode
# and format, the state machine, min-active and event mask, replace, deny
# and allow, show (text, -j, ev show), the events a monitor prints; routes
# naming profiles (unknown, not ONLINE, in use); profiles gone with their
# instance. Then every bad request, refused with its errno and the kernel's
# extack message. Requests mrcctl never sends (wrong widths, missing or
# malformed attributes, more than 256 profiles) go through genl, the
# spec-driven client mrc_genl.py (lib.sh).
. "$(dirname "$0")/lib.sh"

mrc_monitor_test mrc44

# genl OP ATTRS: one request of operation OP of the spec (mrc_genl.py);
# ATTRS is a Python expression: a list of (NAME, VALUE), NAME an attribute
# of the operation's set (NAME:TYPE to encode it as another type, SET.NAME
# for one of another set), VALUE a number, a string, "hex:..." bytes or,
# for a nest, a list of the same.  Prints "ok" or "error ENAME
# (strerror): extack".  "genl bulk N FIRST DEV" adds N AUTO EV profiles
# with ids FIRST.. over one socket and prints the number refused.
GENL='
if sys.argv[1] == "bulk":
    n, first, dev = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    c = Client()
    bad = 0
    for i in range(n):
        bad += c.request("ev-profile-add", [
            ("dev-name", dev), ("id", first + i), ("mode", 1), ("format", 1),
            ("count", 4), ("plane-mask", 1)])[0] != 0
    print(bad)
    sys.exit(0)
result(sys.argv[1], eval(sys.argv[2], {}))
'
genl() { genl_py "$A" "$GENL" "$@"; }

# Operations of the spec.
EV_ADD=ev-profile-add
EV_SET=ev-profile-set
EV_GET=ev-profile-get
CC_ADD=cc-profile-add
CC_SET=cc-profile-set
DEV="('dev-name','mrc0')"

require_cmd python3
mrc_ctl_setup 3

mrc_monitors p3

check "rdma link add mrc0 (plane 1 = p1)" N rdma link add mrc0 type mrc netdev p1
check "plane add p2 to mrc0 (id 2)" M plane add dev mrc0 netdev p2

# --- the built-in profiles ------------------------------------------------------
check_output "EV profile 0 is the built-in AUTO/udp one" \
	'^dev mrc0 id 0 mode auto format udp state online min-active 1 events all count 16 planes route$' \
	M ev-profile show
check_output "... also by id" '^dev mrc0 id 0 mode auto format udp state online ' \
	M ev-profile show dev mrc0 id 0
check_output "CC profile 0: the built-in default (what QPs used so far)" \
	'^dev mrc0 id 0 algo uet-1.0-nscc base-rtt 100us target-delay 200us qa-threshold 4ms adjust-bytes 65536 adjust-period 100us eta 4 fi 1 fi-scale 4 gamma 1024 max-md-jump 512 max-cwnd 524288 min-cwnd 0 init-cwnd 262144 qa-gate 1 disable-qa off$' \
	M cc-profile show

# --- EV profiles: every mode and format -------------------------------------------
check "AUTO udp" M ev-profile add dev mrc0 id 1 mode auto format udp count 8 planes 1,2
check_output "... shown in state init" \
	'^dev mrc0 id 1 mode auto format udp state init min-active 0 events all count 8 planes 1,2$' \
	M ev-profile show dev mrc0 id 1
check "AUTO stev, min-active, events" \
	M ev-profile add dev mrc0 id 2 mode auto format stev count 256 planes 1-3 min-active 4 events good,profile
check_output "... shown" \
	'^dev mrc0 id 2 mode auto format stev state init min-active 4 events good,profile count 256 planes 1-3$' \
	M ev-profile show dev mrc0 id 2
check "EXP udp (decimal and hex ports)" \
	M ev-profile add dev mrc0 id 10 mode exp format udp ev plane 1 value 49152 ev plane 2 value 49153 ev plane 1 value 0xc002
check_output "... the EVs, one line each" \
	'^dev mrc0 id 10 mode exp format udp state init min-active 0 events all\|    index 0 plane 1 value 49152 state unknown\|    index 1 plane 2 value 49153 state unknown\|    index 2 plane 1 value 49154 state unknown$' \
	joined M ev-profile show dev mrc0 id 10
check "EXP stev" M ev-profile add dev mrc0 id 11 mode exp format stev ev plane 1 value 0x12345678 ev plane 2 value 4096
check_output "... values in hex" '^    index 0 plane 1 value 0x12345678 state unknown\|    index 1 plane 2 value 0x00001000 state unknown$' \
	joined M ev show dev mrc0 profile 11
check "EXP srv6 (a SID; a SID and a segment)" \
	M ev-profile add dev mrc0 id 12 mode exp format srv6 ev plane 1 value fd00::1 ev plane 2 value fd00::2,fd01::2
check_output "... both forms" '^    index 0 plane 1 value fd00::1 state unknown\|    index 1 plane 2 value fd00::2,fd01::2 state unknown$' \
	joined M ev show dev mrc0 profile 12
check "GEN udp: 4 values x 2 planes" \
	M ev-profile add dev mrc0 id 20 mode gen format udp field width 2 init 0 min 0 max 3 base 0xc000 planes 1,2
check_output "... the expansion, value by value, plane by plane" \
	'^dev mrc0 id 20 mode gen format udp state init min-active 0 events all planes 1,2 shift 0 base 0xc000\|    field width 2 init 0 min 0 max 3 mask 0x3\|    index 0 plane 1 value 49152 state unknown\|    index 1 plane 2 value 49152 state unknown\|    index 2 plane 1 value 49153 state unknown\|.*\|    index 7 plane 2 value 49155 state unknown$' \
	joined M ev-profile show dev mrc0 id 20
check "GEN stev: two fields, shift 12, a mask" \
	M ev-profile add dev mrc0 id 21 mode gen format stev field width 4 init 1 min 1 max 2 field width 4 init 0 min 0 max 4 mask 0x4 shift 12 planes 3
check_output "... 2 x 2 EVs on plane 3" \
	'^    index 0 plane 3 value 0x00010000 state unknown\|    index 1 plane 3 value 0x00014000 state unknown\|    index 2 plane 3 value 0x00020000 state unknown\|    index 3 plane 3 value 0x00024000 state unknown$' \
	joined M ev show dev mrc0 profile 21
check "GEN srv6: SIDs from a base address" \
	M ev-profile add dev mrc0 id 22 mode gen format srv6 field width 8 init 1 min 1 max 3 base fd00:: planes 1
check_output "... fd00::1..3" '^    index 0 plane 1 value fd00::1 state unknown\|    index 1 plane 1 value fd00::2 state unknown\|    index 2 plane 1 value fd00::3 state unknown$' \
	joined M ev show dev mrc0 profile 22
check_output "dump: the built-in and every profile, by id" \
	'^dev mrc0 id 0 [^|]*\|dev mrc0 id 1 [^|]*\|dev mrc0 id 2 [^|]*\|dev mrc0 id 10 ' \
	joined sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile show | grep '^dev'"
check_output "-j ev-profile show (one EXP profile)" \
	'^\[\{"dev":"mrc0","dev_index":[0-9]+,"id":10,"mode":"exp","format":"udp","state":"init","min_active":0,"events":"all","evs":\[\{"index":0,"plane":1,"value":"49152","state":"unknown"\},\{"index":1,"plane":2,"value":"49153","state":"unknown"\},\{"index":2,"plane":1,"value":"49154","state":"unknown"\}\]\}\]$' \
	M -j ev-profile show dev mrc0 id 10
check_output "-j of GEN: fields, planes, base" \
	'"mode":"gen","format":"stev",.*"planes":"3","fields":\[\{"width":4,"init":1,"min":1,"max":2,"mask":15\},\{"width":4,"init":0,"min":0,"max":4,"mask":4\}\],"shift":12,"base":"0x00000000","evs":\[' \
	M -j ev-profile show dev mrc0 id 21
check_output "-j ev show" '^\[\{"dev":"mrc0","profile":12,"evs":\[\{"index":0,"plane":1,"value":"fd00::1","state":"unknown"\},' \
	M -j ev show dev mrc0 profile 12

# --- state machine, min-active, events ---------------------------------------------
state='^mrcctl: EV profile state transition not allowed \(Invalid argument\)$'
check_output "INIT -> ONLINE: refused" "$state" exits 1 M ev-profile set dev mrc0 id 10 state online
check "INIT -> OFFLINE" M ev-profile set dev mrc0 id 10 state offline
check_output "OFFLINE -> INIT: refused" "$state" exits 1 M ev-profile set dev mrc0 id 10 state init
check "OFFLINE -> ONLINE (validated)" M ev-profile set dev mrc0 id 10 state online
check_output "... shown online" '^dev mrc0 id 10 mode exp format udp state online ' M ev-profile show dev mrc0 id 10
check "ONLINE -> ONLINE again is a no-op" M ev-profile set dev mrc0 id 10 state online
check "min-active 3 (= the EVs) while online" M ev-profile set dev mrc0 id 10 min-active 3
check_output "min-active 4 while online: ERANGE" \
	'^mrcctl: ev_min_active exceeds the number of EVs \(Numerical result out of range\)$' \
	exits 1 M ev-profile set dev mrc0 id 10 min-active 4
check "events good,denied and min-active 2 at once" \
	M ev-profile set dev mrc0 id 10 events good,denied min-active 2
check_output "... both changed" '^dev mrc0 id 10 mode exp format udp state online min-active 2 events good,denied$' \
	M ev-profile show dev mrc0 id 10
check_output "a refused SET changes nothing (events none + min-active 9)" \
	'^mrcctl: ev_min_active exceeds' exits 1 M ev-profile set dev mrc0 id 10 events none min-active 9
check_output "... events still good,denied" ' min-active 2 events good,denied$' M ev-profile show dev mrc0 id 10
check "GEN udp OFFLINE -> ONLINE" sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile set dev mrc0 id 20 state offline && $(printf '%q ' "$MRCCTL" -n "$A") ev-profile set dev mrc0 id 20 state online"
check "the same value on two planes is two EVs" \
	M ev-profile add dev mrc0 id 13 mode exp format udp ev plane 1 value 100 ev plane 2 value 100
check "AUTO with one EV" M ev-profile add dev mrc0 id 23 mode auto format udp count 1 planes 1
check "... min-active 2 > count 1 is accepted while not online" \
	M ev-profile set dev mrc0 id 23 min-active 2
check "... and taken offline" M ev-profile set dev mrc0 id 23 state offline
check_output "... but not online: EMINACTIVE" \
	'^mrcctl: ev_min_active exceeds the number of EVs \(Numerical result out of range\)$' \
	exits 1 M ev-profile set dev mrc0 id 23 state online
check_output "... left offline" '^dev mrc0 id 23 mode auto format udp state offline ' M ev-profile show dev mrc0 id 23

# --- replace, deny, allow ------------------------------------------------------
check "replace EV 1 of an ONLINE profile" M ev-profile ev replace dev mrc0 profile 10 index 1 plane 2 value 50000
check_output "... replaced" '^    index 1 plane 2 value 50000 state unknown$' M ev show dev mrc0 profile 10
check "deny EV 0" M ev-profile ev deny dev mrc0 profile 10 index 0
check_output "... denied" '^    index 0 plane 1 value 49152 state denied$' M ev show dev mrc0 profile 10
check "allow EV 0 again" M ev-profile ev allow dev mrc0 profile 10 index 0
check_output "... unknown again" '^    index 0 plane 1 value 49152 state unknown$' M ev show dev mrc0 profile 10
check "replace in srv6: a SID and a segment" M ev-profile ev replace dev mrc0 profile 12 index 0 plane 1 value fd00::9,fd01::9
check_output "... replaced" '^    index 0 plane 1 value fd00::9,fd01::9 state unknown$' M ev show dev mrc0 profile 12
check "replace in a GEN profile" M ev-profile ev replace dev mrc0 profile 20 index 7 plane 1 value 60000
check_output "... replaced" '^    index 7 plane 1 value 60000 state unknown$' M ev show dev mrc0 profile 20
check_output "replace with a duplicate: EEXIST" \
	'^mrcctl: duplicate EV \(same plane and value\) \(File exists\)$' \
	exits 1 M ev-profile ev replace dev mrc0 profile 10 index 1 plane 1 value 49152
check_output "replace index 3 of 3: ENOENT" '^mrcctl: no EV with that index \(No such file or directory\)$' \
	exits 1 M ev-profile ev replace dev mrc0 profile 10 index 3 plane 1 value 1000
check_output "deny index 65535: ENOENT" '^mrcctl: no EV with that index \(No such file or directory\)$' \
	exits 1 M ev-profile ev deny dev mrc0 profile 10 index 65535
check_output "replace with port 0: EINVAL" \
	'^mrcctl: EV value not usable \(port 0, SID ::, ::1, multicast\) \(Invalid argument\)$' \
	exits 1 M ev-profile ev replace dev mrc0 profile 10 index 1 plane 1 value 0
check_output "replace with a multicast SID: EINVAL" '^mrcctl: EV value not usable ' \
	exits 1 M ev-profile ev replace dev mrc0 profile 12 index 1 plane 1 value ff02::1
check_output "replace on plane 17: ERANGE" '^mrcctl: EV plane out of range \(Numerical result out of range\)$' \
	exits 1 M ev-profile ev replace dev mrc0 profile 10 index 1 plane 17 value 1000
check_output "deny in an AUTO profile: EINVAL" \
	'^mrcctl: unknown mode, or not valid in this mode \(Invalid argument\)$' \
	exits 1 M ev-profile ev deny dev mrc0 profile 1 index 0
check_output "replace in an unknown profile: ENOENT" \
	'^mrcctl: no EV profile with this id \(No such file or directory\)$' \
	exits 1 M ev-profile ev replace dev mrc0 profile 99 index 0 plane 1 value 1
check_output "replace value not in the format: exit 1, named" \
	"invalid EV value 'fd00::1' for format udp of profile 10" \
	exits 1 M ev-profile ev replace dev mrc0 profile 10 index 0 plane 1 value fd00::1

# --- CC profiles ---------------------------------------------------------------
check "cc-profile add (times with suffixes)" \
	M cc-profile add dev mrc0 id 1 algo uet-1.0-nscc base-rtt 50us target-delay 1500 qa-threshold 2ms
check_output "... the rest from the default" \
	'^dev mrc0 id 1 algo uet-1.0-nscc base-rtt 50us target-delay 1500ns qa-threshold 2ms adjust-bytes 65536 adjust-period 100us eta 4 fi 1 fi-scale 4 gamma 1024 max-md-jump 512 max-cwnd 524288 min-cwnd 0 init-cwnd 262144 qa-gate 1 disable-qa off$' \
	M cc-profile show dev mrc0 id 1
check "cc-profile set changes the values given" \
	M cc-profile set dev mrc0 id 1 gamma 512 disable-qa on max-cwnd 1048576 init-cwnd 0x10000 qa-gate 3
check_output "... changed" ' gamma 512 max-md-jump 512 max-cwnd 1048576 min-cwnd 0 init-cwnd 65536 qa-gate 3 disable-qa on$' \
	M cc-profile show dev mrc0 id 1
check "cc-profile 2 (all values)" \
	M cc-profile add dev mrc0 id 2 algo uet-1.0-nscc base-rtt 1ms target-delay 2ms qa-threshold 8ms adjust-bytes 1 adjust-period 1 eta 1 fi 2 fi-scale 3 gamma 1 max-md-jump 1024 max-cwnd 100 min-cwnd 10 init-cwnd 50 qa-gate 0 disable-qa off
check_output "-j cc-profile show" \
	'^\[\{"dev":"mrc0","dev_index":[0-9]+,"id":2,"algo":"uet-1.0-nscc","base_rtt":1000000,"target_delay":2000000,"qa_threshold":8000000,"adjust_bytes":1,"adjust_period":1,"eta":1,"fi":2,"fi_scale":3,"gamma":1,"max_md_jump":1024,"max_cwnd":100,"min_cwnd":10,"init_cwnd":50,"qa_gate":0,"disable_qa":false\}\]$' \
	M -j cc-profile show dev mrc0 id 2
check_output "cc dump: built-in, 1, 2" '^dev mrc0 id 0 [^|]*\|dev mrc0 id 1 [^|]*\|dev mrc0 id 2 [^|]*$' \
	joined M cc-profile show dev mrc0

# --- routes and profiles -----------------------------------------------------------
check_output "route naming an unknown EV profile: ENOENT" \
	'^mrcctl: no EV profile with this id \(No such file or directory\)$' \
	exits 1 M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 ev-profile 99
check_output "route naming an INIT EV profile: EINVAL" \
	'^mrcctl: EV profile is not ONLINE \(Invalid argument\)$' \
	exits 1 M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 ev-profile 1
check_output "route naming an OFFLINE EV profile: EINVAL" \
	'^mrcctl: EV profile is not ONLINE \(Invalid argument\)$' \
	exits 1 M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 ev-profile 23
check_output "route naming an unknown CC profile: ENOENT" \
	'^mrcctl: no CC profile with this id \(No such file or directory\)$' \
	exits 1 M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 cc-profile 99
check "route naming ONLINE EV profile 10 and CC profile 1" \
	M route add 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 ev-profile 10 cc-profile 1
check "IPv6 route naming EV profile 20 and CC profile 2" \
	M route add fd00::2 dev mrc0 plane 2 via fd02::2 ev-profile 20 cc-profile 2
check_output "route set to an unknown CC profile: ENOENT, route unchanged" \
	'^mrcctl: no CC profile with this id ' exits 1 M route set 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2 cc-profile 7
check_output "... unchanged" '^dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 ev-profile 10 cc-profile 1$' \
	M route show dev mrc0 10.0.0.2
busy4='^mrcctl: EV profile in use by the route to 10.0.0.2 \(Device or resource busy\)$'
check_output "EV profile in use: del EBUSY, names the peer" "$busy4" exits 1 M ev-profile del dev mrc0 id 10
check_output "EV profile in use: ONLINE -> OFFLINE EBUSY" "$busy4" \
	exits 1 M ev-profile set dev mrc0 id 10 state offline
check "... while replace and deny still work" M ev-profile ev deny dev mrc0 profile 10 index 2
check_output "EV profile in use by an IPv6 route: the peer in IPv6 form" \
	'^mrcctl: EV profile in use by the route to fd00::2 \(Device or resource busy\)$' \
	exits 1 M ev-profile del dev mrc0 id 20
check_output "CC profile in use: del EBUSY" \
	'^mrcctl: CC profile in use by the route to 10.0.0.2 \(Device or resource busy\)$' \
	exits 1 M cc-profile del dev mrc0 id 1
check "route set moves 10.0.0.2 to the default profiles" M route set 10.0.0.2 dev mrc0 plane 1 via 10.1.0.2
check "now EV profile 10 can go offline" M ev-profile set dev mrc0 id 10 state offline
check "... and be deleted" M ev-profile del dev mrc0 id 10
check "CC profile 1 can be deleted" M cc-profile del dev mrc0 id 1
check_output "... gone" '^mrcctl: no CC profile with this id \(No such file or directory\)$' \
	exits 1 M cc-profile show dev mrc0 id 1
check "route del fd00::2; profile 20 and CC 2 deleted" sh -c \
	"$(printf '%q ' "$MRCCTL" -n "$A") route del fd00::2 dev mrc0 && $(printf '%q ' "$MRCCTL" -n "$A") ev-profile del dev mrc0 id 20 && $(printf '%q ' "$MRCCTL" -n "$A") cc-profile del dev mrc0 id 2"

# --- bad requests through mrcctl ------------------------------------------------
check_output "id 0 (the built-in): EPERM" \
	'^mrcctl: EV profile 0 is the built-in default and cannot be changed \(Operation not permitted\)$' \
	exits 1 M ev-profile add dev mrc0 id 0 mode auto format udp count 1 planes 1
check_output "del of EV profile 0: EPERM" '^mrcctl: EV profile 0 is the built-in ' \
	exits 1 M ev-profile del dev mrc0 id 0
check_output "set of CC profile 0: EPERM" \
	'^mrcctl: CC profile 0 is the built-in default and cannot be changed \(Operation not permitted\)$' \
	exits 1 M cc-profile set dev mrc0 id 0 eta 2
check_output "id 65536: ERANGE" '^mrcctl: profile id out of range \(1..65535\) \(Numerical result out of range\)$' \
	exits 1 M ev-profile add dev mrc0 id 65536 mode auto format udp count 1 planes 1
check_output "duplicate EV profile id: EEXIST" '^mrcctl: an EV profile with this id exists \(File exists\)$' \
	exits 1 M ev-profile add dev mrc0 id 1 mode auto format udp count 1 planes 1
noev='^mrcctl: no EV profile with this id \(No such file or directory\)$'
check_output "del unknown EV profile: ENOENT" "$noev" exits 1 M ev-profile del dev mrc0 id 99
check_output "set unknown EV profile: ENOENT" "$noev" exits 1 M ev-profile set dev mrc0 id 99 state offline
check_output "show unknown EV profile: ENOENT" "$noev" exits 1 M ev-profile show dev mrc0 id 99
check_output "ev show of an unknown profile: ENOENT" "$noev" exits 1 M ev show dev mrc0 profile 99
check_output "unknown instance: ENODEV" '^mrcctl: no such MRC device in this network namespace \(No such device\)$' \
	exits 1 M ev-profile add dev nosuch id 5 mode auto format udp count 1 planes 1
check_output "AUTO srv6: EINVAL" '^mrcctl: AUTO: EV count out of range, or SRV6 format \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode auto format srv6 count 1 planes 1
check_output "AUTO count 0: EINVAL" '^mrcctl: AUTO: EV count out of range' \
	exits 1 M ev-profile add dev mrc0 id 5 mode auto format udp count 0 planes 1
check_output "AUTO count 257: EINVAL" '^mrcctl: AUTO: EV count out of range' \
	exits 1 M ev-profile add dev mrc0 id 5 mode auto format udp count 257 planes 1
check_output "AUTO without planes: EINVAL" \
	'^mrcctl: AUTO profile needs an EV count \(MRC_A_EV_PROFILE_COUNT\) and planes \(MRC_A_EV_PROFILE_PLANE_MASK\) \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode auto format udp count 4
check_output "EXP without EVs: EINVAL" '^mrcctl: EXP profile needs its EVs \(MRC_A_EV_PROFILE_EVS\) \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp
check_output "EXP with planes: EINVAL" \
	'^mrcctl: EXP profiles take no plane mask: each EV names its plane \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp planes 1 ev plane 1 value 5
check_output "EXP with a count: EINVAL" '^mrcctl: only AUTO profiles take an EV count \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp count 3 ev plane 1 value 5
check_output "AUTO with EVs: EINVAL" '^mrcctl: only EXP profiles take a list of EVs \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode auto format udp count 3 planes 1 ev plane 1 value 5
check_output "EXP with a GEN field: EINVAL" \
	'^mrcctl: only GEN profiles take GEN fields, shift and base \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp ev plane 1 value 5 field width 1 init 0 min 0 max 1
check_output "EXP plane 0: ERANGE" '^mrcctl: EV plane out of range \(Numerical result out of range\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp ev plane 0 value 5
check_output "EXP plane 17: ERANGE" '^mrcctl: EV plane out of range ' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp ev plane 17 value 5
check_output "EXP port 0: EINVAL" '^mrcctl: EV value not usable \(port 0, SID ::, ::1, multicast\) \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp ev plane 1 value 0
check_output "EXP SID ::1: EINVAL" '^mrcctl: EV value not usable ' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format srv6 ev plane 1 value ::1
check_output "EXP the same EV twice: EEXIST" '^mrcctl: duplicate EV \(same plane and value\) \(File exists\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode exp format udp ev plane 1 value 7 ev plane 1 value 7
check_output "GEN width 33: EINVAL" '^mrcctl: GEN: field width must be 1..32 bits \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format stev field width 33 init 0 min 0 max 1 planes 1
check_output "GEN init above max: EINVAL" '^mrcctl: GEN: need min <= init <= max < 2\^width \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 4 init 9 min 0 max 8 planes 1
check_output "GEN max beyond the width: EINVAL" '^mrcctl: GEN: need min <= init <= max < 2\^width ' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 2 init 0 min 0 max 4 planes 1
check_output "GEN init outside the mask: EINVAL" \
	'^mrcctl: GEN: mask too wide, or init/min/max outside it \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 4 init 1 min 0 max 8 mask 0x8 planes 1
check_output "GEN 16 bits shifted by 4 in udp: EINVAL" \
	'^mrcctl: GEN: fields and shift exceed the EV format \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 16 init 1 min 1 max 2 shift 4 planes 1
check_output "GEN base overlapping the fields: EINVAL" \
	'^mrcctl: GEN: base sets bits reserved for the fields \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 4 init 1 min 1 max 2 base 0xc001 planes 1
check_output "GEN 257 EVs: E2BIG" '^mrcctl: too many EVs \(Argument list too long\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 9 init 1 min 1 max 257 planes 1
check_output "GEN 9 fields: EINVAL" '^mrcctl: GEN: number of fields out of range \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format stev planes 1 \
	$(for i in $(seq 9); do printf 'field width 1 init 0 min 0 max 1 '; done)
check_output "GEN without planes: EINVAL" \
	'^mrcctl: GEN profile needs its planes \(MRC_A_EV_PROFILE_PLANE_MASK\) \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp field width 1 init 0 min 0 max 1
check_output "GEN without fields: EINVAL" \
	'^mrcctl: GEN profile needs its fields \(MRC_A_EV_PROFILE_GEN_FIELDS\) \(Invalid argument\)$' \
	exits 1 M ev-profile add dev mrc0 id 5 mode gen format udp planes 1
check_output "nothing refused was added" '^$' sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile show | grep '^dev mrc0 id 5 '; true"
check_output "cc algo other than uet-1.0-nscc: EOPNOTSUPP" \
	'^mrcctl: unknown CC algorithm \(uet-1.0-nscc or none\) \(Operation not supported\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo dctcp
check_output "cc gamma 1025: EINVAL" '^mrcctl: gamma out of range \(1..1024\) \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc gamma 1025
check_output "cc max-md-jump 0: EINVAL" '^mrcctl: max MD jump out of range \(1..1024\) \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc max-md-jump 0
check_output "cc fi-scale 0: EINVAL" '^mrcctl: fi scale must be at least 1 \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc fi-scale 0
check_output "cc base-rtt 0: EINVAL" '^mrcctl: base RTT must be at least 1 ns \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc base-rtt 0
check_output "cc init-cwnd above max-cwnd: EINVAL" '^mrcctl: init cwnd exceeds max cwnd \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc max-cwnd 1000
check_output "cc min-cwnd above init-cwnd: EINVAL" '^mrcctl: min cwnd exceeds init cwnd \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc min-cwnd 300000
check_output "cc qa-gate 32: EINVAL" '^mrcctl: qa gate out of range \(0..31\) \(Invalid argument\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc qa-gate 32
check "cc-profile 5 for the checks below" M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc
check_output "duplicate CC profile id: EEXIST" '^mrcctl: a CC profile with this id exists \(File exists\)$' \
	exits 1 M cc-profile add dev mrc0 id 5 algo uet-1.0-nscc
check_output "a refused cc set changes nothing" '^mrcctl: gamma out of range' \
	exits 1 M cc-profile set dev mrc0 id 5 eta 9 gamma 0
check_output "... eta still 4" ' eta 4 ' M cc-profile show dev mrc0 id 5
check "cc-profile 6: no congestion control (algo none)" \
	M cc-profile add dev mrc0 id 6 algo none max-cwnd 65536 init-cwnd 65536
check_output "... shown as algo none" '^dev mrc0 id 6 algo none .* max-cwnd 65536 ' \
	M cc-profile show dev mrc0 id 6
check "cc-profile set 6 algo uet-1.0-nscc (the algorithm alone)" \
	M cc-profile set dev mrc0 id 6 algo uet-1.0-nscc
check_output "... shown as uet-1.0-nscc" '^dev mrc0 id 6 algo uet-1.0-nscc ' \
	M cc-profile show dev mrc0 id 6
check "cc-profile 6 deleted" M cc-profile del dev mrc0 id 6
check_output "cc set of an unknown profile: ENOENT" '^mrcctl: no CC profile with this id \(No such file or directory\)$' \
	exits 1 M cc-profile set dev mrc0 id 99 eta 2
check_output "cc del of an unknown profile: ENOENT" '^mrcctl: no CC profile with this id ' \
	exits 1 M cc-profile del dev mrc0 id 99

# --- malformed requests (raw) -----------------------------------------------------
check_output "raw client works: a valid get" '^ok$' genl $EV_GET "[$DEV,('id',1)]"
check_output "missing id: EINVAL" '^error EINVAL .*: missing EV profile id \(MRC_A_EV_PROFILE_ID\)$' \
	exits 1 genl $EV_ADD "[$DEV,('mode',1),('format',1)]"
check_output "missing mode: EINVAL" '^error EINVAL .*: missing mode \(MRC_A_EV_PROFILE_MODE\) or format' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('format',1)]"
check_output "mode 7: EINVAL" '^error EINVAL .*: unknown mode, or not valid in this mode$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',7),('format',1)]"
check_output "format 9: EINVAL" '^error EINVAL .*: unknown EV format$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',9)]"
check_output "id as a u16 (wrong width): refused by the policy" '^error E[A-Z]+ .*: .+' \
	exits 1 genl $EV_ADD "[$DEV,('id:u16',5),('mode',1),('format',1),('count',1),('plane-mask',1)]"
check_output "count as a u32 (wrong width): refused by the policy" '^error E[A-Z]+ .*: .+' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',1),('format',1),('count:u32',1),('plane-mask',1)]"
check_output "plane mask 0: ERANGE" '^error ERANGE .*: plane mask empty or beyond the last plane$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',1),('format',1),('count',1),('plane-mask',0)]"
check_output "an EXP value of 3 bytes in udp: EINVAL" '^error EINVAL .*: EV value length does not match the format$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[('ev',[('plane',1),('value','hex:'+'000102')])])]"
check_output "an EXP value of 20 bytes in srv6: EINVAL" '^error EINVAL .*: EV value length does not match the format$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',3),('evs',[('ev',[('plane',1),('value','hex:'+'fd'+'00'*19)])])]"
check_output "an EV value of 33 bytes: refused by the policy" '^error E[A-Z]+ .*: .+' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',3),('evs',[('ev',[('plane',1),('value','hex:'+'fd'*33)])])]"
check_output "an EV without a value: EINVAL" '^error EINVAL .*: missing EV value \(MRC_A_EV_VALUE\)$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[('ev',[('plane',1)])])]"
check_output "an entry of EVS that is not an EV: EINVAL" \
	'^error EINVAL .*: MRC_A_EV_PROFILE_EVS holds only MRC_A_EV entries$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[('ev-profile.id',1)])]"
check_output "an empty EV list: EINVAL" '^error EINVAL .*: EV profile has no EVs$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[])]"
check_output "257 EVs: E2BIG" '^error E2BIG .*: too many EVs$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[('ev',[('plane',1),('value','hex:'+'%04x' % (i+1))]) for i in range(257)])]"
check "256 EVs are fine" genl $EV_ADD "[$DEV,('id',6),('mode',2),('format',3),('evs',[('ev',[('plane',1),('value','hex:'+'fd00'+'00'*12+'%04x' % (i+2) + 'fd01'+'00'*14)]) for i in range(256)])]"
check_output "... and shown with every EV (256 32-byte values)" '^257$' \
	sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile show dev mrc0 id 6 | wc -l"
check_output "... in a dump too" '^256$' \
	sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile show | grep -c ',fd01:: state'"
check_output "an EXP EV starting GOOD: EINVAL" '^error EINVAL .*: invalid EV state$' \
	exits 1 genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[('ev',[('plane',1),('value','hex:'+'0005'),('state',1)])])]"
check "an EXP EV starting DENIED is fine" \
	genl $EV_ADD "[$DEV,('id',5),('mode',2),('format',1),('evs',[('ev',[('plane',1),('value','hex:'+'0005'),('state',3)])])]"
check_output "... shown denied" '^    index 0 plane 1 value 5 state denied$' M ev show dev mrc0 profile 5
check_output "event mask bit 9: EINVAL" '^error EINVAL .*: unknown EV event mask bit$' \
	exits 1 genl $EV_SET "[$DEV,('id',5),('event-mask',512)]"
check_output "a GEN base of the wrong length: EINVAL" \
	'^error EINVAL .*: GEN base must be as long as the format.s value \(UDP 2, STEV 4, SRV6 16 bytes\)$' \
	exits 1 genl $EV_ADD "[$DEV,('id',7),('mode',3),('format',1),('plane-mask',1),('gen-fields',[('gen-field',[('width',1),('init',0),('min',0),('max',1)])]),('gen-base','hex:'+'000000')]"
check_output "a GEN field without max: EINVAL" '^error EINVAL .*: GEN field needs width, init, min and max$' \
	exits 1 genl $EV_ADD "[$DEV,('id',7),('mode',3),('format',1),('plane-mask',1),('gen-fields',[('gen-field',[('width',1),('init',0),('min',0)])])]"
check_output "state in ADD: EINVAL" '^error EINVAL .*: a new profile starts in state INIT' \
	exits 1 genl $EV_ADD "[$DEV,('id',7),('mode',1),('format',1),('state',2),('count',1),('plane-mask',1)]"
check_output "SET with nothing: EINVAL" '^error EINVAL .*: nothing to change' \
	exits 1 genl $EV_SET "[$DEV,('id',5)]"
check_output "SET of one EV together with a state: EINVAL" \
	'^error EINVAL .*: an EV change \(MRC_A_EV_INDEX\) goes in a request of its own$' \
	exits 1 genl $EV_SET "[$DEV,('id',5),('ev-index',0),('ev-deny',1),('state',1)]"
check_output "deny without an index: EINVAL" '^error EINVAL .*: missing EV index \(MRC_A_EV_INDEX\)$' \
	exits 1 genl $EV_SET "[$DEV,('id',5),('ev-deny',1)]"
check_output "replace and deny at once: EINVAL" '^error EINVAL .*: replace an EV or deny/allow it, not both$' \
	exits 1 genl $EV_SET "[$DEV,('id',5),('ev-index',0),('ev-deny',1),('ev-plane',1),('ev-value','hex:'+'0009')]"
check_output "EV_DENY 2: refused by the policy" '^error E[A-Z]+ .*: .+' \
	exits 1 genl $EV_SET "[$DEV,('id',5),('ev-index',0),('ev-deny',2)]"
check_output "cc without algo: EINVAL" '^error EINVAL .*: missing CC algorithm \(MRC_A_CC_ALGO\)$' \
	exits 1 genl $CC_ADD "[$DEV,('profile-id',9)]"
check_output "cc set with nothing: EINVAL" '^error EINVAL .*: nothing to change: give an algorithm or at least one CC value$' \
	exits 1 genl $CC_SET "[$DEV,('profile-id',5)]"
check_output "cc disable-qa 2: EINVAL" '^error EINVAL .*: disable qa must be 0 or 1$' \
	exits 1 genl $CC_SET "[$DEV,('profile-id',5),('disable-qa',2)]"
check_output "cc base-rtt as a u8 (wrong width): refused by the policy" '^error E[A-Z]+ .*: .+' \
	exits 1 genl $CC_SET "[$DEV,('profile-id',5),('base-rtt:u8',2)]"

# --- limit: 256 EV profiles per instance --------------------------------------------
have=$(M ev-profile show dev mrc0 | grep -c '^dev mrc0 id [1-9]')
check_output "bulk: up to 256 EV profiles accepted" '^0$' genl bulk $((256 - have)) 1000 mrc0
check_output "the 257th: ENOSPC" '^mrcctl: too many EV profiles \(256 per device\) \(No space left on device\)$' \
	exits 1 M ev-profile add dev mrc0 id 5000 mode auto format udp count 1 planes 1
check_output "a dump holds them all (and the built-in)" '^257$' \
	sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile show dev mrc0 | grep -c '^dev mrc0 id '"

# --- unprivileged caller ---------------------------------------------------------
if [ ${#unpriv[@]} -eq 0 ]; then
	skip "unprivileged profile changes" "no setpriv"
else
	U() { ns_exec "$A" "${unpriv[@]}" "$MRCCTL" "$@"; }
	check_output "unprivileged ev-profile add: EPERM" '^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U ev-profile add dev mrc0 id 9 mode auto format udp count 1 planes 1
	check_output "unprivileged ev-profile ev deny: EPERM" '^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U ev-profile ev deny dev mrc0 profile 5 index 0
	check_output "unprivileged cc-profile set: EPERM" '^mrcctl: .*\(Operation not permitted\)$' \
		exits 1 U cc-profile set dev mrc0 id 5 eta 1
	check_output "unprivileged show works" '^dev mrc0 id 5 algo ' U cc-profile show dev mrc0 id 5
fi

# --- requests mrcctl refuses itself (exit 2) ----------------------------------------
check_output "missing mode: exit 2" "missing 'mode MODE'" exits 2 M ev-profile add dev mrc0 id 9 format udp
check_output "bad format word: exit 2" "invalid format 'tcp'" exits 2 M ev-profile add dev mrc0 id 9 mode exp format tcp
check_output "udp port 65536: exit 2" "invalid EV value '65536' for format udp" \
	exits 2 M ev-profile add dev mrc0 id 9 mode exp format udp ev plane 1 value 65536
check_output "min-active 65536: exit 2" "min-active 65536 is larger than 65535" \
	exits 2 M ev-profile set dev mrc0 id 9 min-active 65536
check_output "bad planes list: exit 2" "invalid planes '1-17'" \
	exits 2 M ev-profile add dev mrc0 id 9 mode auto format udp count 1 planes 1-17
check_output "bad events word: exit 2" "invalid events 'bad'" exits 2 M ev-profile set dev mrc0 id 9 events bad
check_output "bad time: exit 2" "invalid base-rtt '1s'" exits 2 M cc-profile add dev mrc0 id 9 algo uet-1.0-nscc base-rtt 1s
check_output "set without values: exit 2" "missing a value to change" exits 2 M cc-profile set dev mrc0 id 9
check_output "usage errors point at the right help" "^Try 'mrcctl ev-profile ev help'" \
	exits 2 M ev-profile ev deny dev mrc0 profile 5

# --- events ------------------------------------------------------------------------
check "rdma link del mrc0 (profiles go with it)" N rdma link del mrc0
check "monitor saw the instance go" wait_line "$txt" '^dev del dev mrc0 '
check "monitor: profile events, in order" in_order "$txt" \
	'^ev-profile add dev mrc0 id 1 mode auto format udp state init min-active 0 events all count 8 planes 1,2$' \
	'^ev-profile add dev mrc0 id 10 mode exp format udp state init min-active 0 events all evs 3$' \
	'^ev-profile add dev mrc0 id 10 mode exp format udp state offline ' \
	'^ev-profile add dev mrc0 id 10 mode exp format udp state online ' \
	'^cc-profile add dev mrc0 id 1 algo uet-1.0-nscc base-rtt 50us ' \
	'^cc-profile add dev mrc0 id 1 algo uet-1.0-nscc .* gamma 512 ' \
	'^ev-profile del dev mrc0 id 10 ' \
	'^cc-profile del dev mrc0 id 1 ' \
	'^ev-profile del dev mrc0 id 1 ' \
	'^cc-profile del dev mrc0 id 5 ' \
	'^dev del dev mrc0 '
check "-j monitor saw the instance go" wait_line "$json" '"event":"dev_del","dev":"mrc0"'
check "-j monitor: profile events" in_order "$json" \
	'^\{"event":"ev_profile","dev":"mrc0","dev_index":[0-9]+,"id":10,"mode":"exp","format":"udp","state":"init","min_active":0,"events":"all","evs":\[\{"index":0,"plane":1,"value":"49152","state":"unknown"\}' \
	'^\{"event":"cc_profile","dev":"mrc0","dev_index":[0-9]+,"id":1,"algo":"uet-1.0-nscc","base_rtt":50000,' \
	'^\{"event":"ev_profile_del","dev":"mrc0","dev_index":[0-9]+,"id":10,' \
	'^\{"event":"cc_profile_del","dev":"mrc0","dev_index":[0-9]+,"id":1,'
kill -TERM $mon_txt $mon_json
wait $mon_txt $mon_json
check_output "nothing on the monitors' stderr" '^$' \
	sh -c "grep -h '^mrcctl:' \"\$1\" \"\$2\"; true" - "$txt" "$json"

check "rdma link add mrc0 again" N rdma link add mrc0 type mrc netdev p1
check_output "the new mrc0 has only the built-in profiles" '^dev mrc0 id 0 mode auto [^|]*\|dev mrc0 id 0 algo [^|]*$' \
	joined sh -c "$(printf '%q ' "$MRCCTL" -n "$A") ev-profile show | grep '^dev'; $(printf '%q ' "$MRCCTL" -n "$A") cc-profile show"
N rdma link del mrc0
check "rmmod mrc" mrc_unload

done_testing
