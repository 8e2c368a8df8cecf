#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Renaming an instance ("rdma dev set NAME name NEW") keeps netlink and
# mrcctl working under the new name; and carrier flaps racing instance
# removal never leave port events queued on a freed device (run.sh fails
# the test on any oops or warning in dmesg).
. "$(dirname "$0")/lib.sh"

require_cmd rdma "$MRCCTL"
mrc_load || { done_testing; }
veth_pair - r0a 10.0.0.1/24 - r0b 10.0.0.2/24

check "link add mrc0" rdma link add mrc0 type mrc netdev r0a
check "rename mrc0 to mrcx" rdma dev set mrc0 name mrcx
check_output "mrcctl dev show lists the new name" "mrcx" "$MRCCTL" dev show
check_output_fail "the old name is gone" "mrc0|no such|not found|unknown" \
	"$MRCCTL" plane show dev mrc0
check_output "plane show under the new name" "dev mrcx id 1 netdev r0a" \
	"$MRCCTL" plane show dev mrcx
check "link del under the new name" rdma link del mrcx

# Carrier changes while "rdma link del" runs: each flap makes the module
# dispatch a port event; the core must never see one after its flush.
flapper() {
	while :; do
		ip link set r0b down
		ip link set r0b up
	done
}
flapper >/dev/null 2>&1 &
flap_pid=$!
fails=0
for i in $(seq 15); do
	rdma link add "mrcr$i" type mrc netdev r0a || fails=$((fails + 1))
	rdma link del "mrcr$i" || fails=$((fails + 1))
done
kill "$flap_pid" 2>/dev/null
wait "$flap_pid" 2>/dev/null
if [ "$fails" -eq 0 ]; then
	ok "15 link add/del cycles under carrier flaps"
else
	not_ok "15 link add/del cycles under carrier flaps ($fails failed steps)"
fi
if rdma link show 2>&1 | grep -q mrcr; then
	not_ok "no instance left"
	rdma link show 2>&1 | sed 's/^/# /'
else
	ok "no instance left"
fi
check "module unloads after the race" mrc_unload

done_testing
