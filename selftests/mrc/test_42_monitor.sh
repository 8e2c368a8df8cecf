#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest-timeout: 600
#
# mrcctl monitor: plain and -j monitors run in the background, writing to
# files, while planes are added, set down and up, lose and regain carrier,
# are deleted (by command and by deleting their netdev) and instances come
# and go. Every event line must appear, in order, and the monitors must
# exit cleanly on SIGTERM and SIGINT.
. "$(dirname "$0")/lib.sh"

mrc_monitor_test mrc42
only1=$tmp/monitor-mrc1.txt

require_cmd python3
mrc_ctl_setup 4

"$MRCCTL" -n "$A" monitor dev mrc1 >"$only1" 2>&1 &
mon_only1=$!
mrc_monitors p4
check "monitors still running" kill -0 $mon_txt $mon_json $mon_only1
start=$(wc -l <"$txt")

# --- the events --------------------------------------------------------------
check "rdma link add mrc0" N rdma link add mrc0 type mrc netdev p1
check "plane add p2 (id 2)" M plane add dev mrc0 netdev p2
check "plane add p3 id 5" M plane add dev mrc0 netdev p3 id 5
check "plane set id 2 down" M plane set dev mrc0 id 2 down
check "plane set id 2 up" M plane set dev mrc0 id 2 up
check "carrier of plane 5 down (peer q3 down)" ns_exec "$B" ip link set q3 down
wait_line "$txt" '^plane down dev mrc0 id 5 ' >/dev/null ||
	diag "no carrier-down event within 10 s"
check "carrier of plane 5 up (peer q3 up)" ns_exec "$B" ip link set q3 up
wait_line "$txt" '^plane up dev mrc0 id 5 ' >/dev/null || diag "no carrier-up event within 10 s"
check "plane del id 5" M plane del dev mrc0 id 5
check "ip link del p2 (plane 2's netdev)" N ip link del p2
check "rdma link del mrc0" N rdma link del mrc0
check "rdma link add mrc1" N rdma link add mrc1 type mrc netdev p4
wait_line "$txt" '^plane add dev mrc1 id 1 ' >/dev/null || diag "no plane add of mrc1 within 10 s"
wait_line "$only1" '^plane add dev mrc1 id 1 ' >/dev/null || diag "no plane add in the mrc1 monitor"
wait_line "$json" '"dev":"mrc1","dev_index":[0-9]+,"id":1,' >/dev/null ||
	diag "no JSON plane add of mrc1 within 10 s"

# Events after the readiness probes.
tail -n +$((start + 1)) "$txt" >"$tmp/events.txt"
diag "events seen:"
diag "$(cat "$tmp/events.txt")"

# --- plain lines ---------------------------------------------------------------
check_output "dev add" '^dev add dev mrc0 index [0-9]+$' cat "$tmp/events.txt"
check_output "plane 1 added with the instance" \
	'^plane add dev mrc0 id 1 netdev p1 ifindex [0-9]+ admin up oper up$' cat "$tmp/events.txt"
check_output "plane add id 2" '^plane add dev mrc0 id 2 netdev p2 ' cat "$tmp/events.txt"
check_output "plane add id 5" '^plane add dev mrc0 id 5 netdev p3 ' cat "$tmp/events.txt"
check_output "plane down id 2 (admin)" \
	'^plane down dev mrc0 id 2 netdev p2 ifindex [0-9]+ admin down oper down$' \
	cat "$tmp/events.txt"
check_output "plane up id 2 (admin)" \
	'^plane up dev mrc0 id 2 netdev p2 ifindex [0-9]+ admin up oper up$' cat "$tmp/events.txt"
check_output "plane down id 5 (carrier)" \
	'^plane down dev mrc0 id 5 netdev p3 ifindex [0-9]+ admin up oper down$' \
	cat "$tmp/events.txt"
check_output "plane up id 5 (carrier)" \
	'^plane up dev mrc0 id 5 netdev p3 ifindex [0-9]+ admin up oper up$' cat "$tmp/events.txt"
check_output "plane del id 5" '^plane del dev mrc0 id 5( |$)' cat "$tmp/events.txt"
check_output "plane del id 2 (its netdev deleted)" '^plane del dev mrc0 id 2( |$)' \
	cat "$tmp/events.txt"
check_output "plane del id 1 (instance deleted)" '^plane del dev mrc0 id 1( |$)' \
	cat "$tmp/events.txt"
check_output "dev del" '^dev del dev mrc0 index [0-9]+$' cat "$tmp/events.txt"
check_output "dev add of the next instance" '^dev add dev mrc1 ' cat "$tmp/events.txt"
check "events in the order of the actions" in_order "$tmp/events.txt" \
	'^dev add dev mrc0 ' \
	'^plane add dev mrc0 id 2 ' \
	'^plane add dev mrc0 id 5 ' \
	'^plane down dev mrc0 id 2 ' \
	'^plane up dev mrc0 id 2 ' \
	'^plane down dev mrc0 id 5 ' \
	'^plane up dev mrc0 id 5 ' \
	'^plane del dev mrc0 id 5 ' \
	'^plane del dev mrc0 id 2 ' \
	'^dev del dev mrc0 ' \
	'^dev add dev mrc1 ' \
	'^plane add dev mrc1 id 1 '
check "the dev filter shows mrc1's events only" \
	sh -c "grep -q '^plane add dev mrc1 id 1 ' '$only1' && ! grep -q 'dev mrc0\|dev mrcw' '$only1'"

# --- JSON lines ------------------------------------------------------------------
check "every -j line is one JSON object with an event" \
	python3 -S -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    assert isinstance(e, dict) and isinstance(e["event"], str), line
' "$json"
check "-j events carry the plane fields" python3 -S -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
def has(**kv):
    return any(all(e.get(k) == v for k, v in kv.items()) for e in ev)
assert has(event="plane_add", dev="mrc0", id=2, netdev="p2", admin_state="up"), "add 2"
assert has(event="plane_down", dev="mrc0", id=2, admin_state="down", oper_state="down"), "down 2"
assert has(event="plane_up", dev="mrc0", id=2, admin_state="up", oper_state="up"), "up 2"
assert has(event="plane_down", dev="mrc0", id=5, admin_state="up", oper_state="down"), "carrier 5"
assert has(event="plane_del", dev="mrc0", id=5), "del 5"
assert has(event="dev_add", dev="mrc1"), "dev add"
assert has(event="dev_del", dev="mrc0"), "dev del"
assert all(isinstance(e.get("dev_index"), int) for e in ev), "dev_index"
' "$json"

# --- clean exits ---------------------------------------------------------------------
check "SIGTERM: plain monitor exits" kill -TERM $mon_txt
wait $mon_txt
check "... with status 0" test $? -eq 0
check "SIGINT: -j monitor exits" kill -INT $mon_json
wait $mon_json
check "... with status 0" test $? -eq 0
kill -TERM $mon_only1
wait $mon_only1
check "nothing on the monitors' stderr" \
	sh -c "! grep -h '^mrcctl:' '$txt' '$json' '$only1'"

# --- the module goes away under a monitor ---------------------------------
"$MRCCTL" -n "$A" monitor >"$tmp/unload.txt" 2>&1 &
mon_unload=$!
ready=0
for i in $(seq 30); do
	M plane set dev mrc1 id 1 down
	M plane set dev mrc1 id 1 up
	if grep -q '^plane up dev mrc1 id 1 ' "$tmp/unload.txt"; then
		ready=1
		break
	fi
	sleep 0.3
done
check "monitor for the unload test is listening" test $ready = 1
N rdma link del mrc1
check "rmmod mrc under a running monitor" mrc_unload
check "... the monitor notices and exits" \
	sh -c "for i in \$(seq 50); do kill -0 $mon_unload 2>/dev/null || exit 0; sleep 0.1; done; exit 1"
wait $mon_unload
check "... with status 1" test $? -eq 1
check_output "... saying why" '^mrcctl: the mrc module was unloaded$' cat "$tmp/unload.txt"

done_testing
