#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Self-check of the test environment and of lib.sh itself, so that a broken
# harness shows up as such and not as failures of the module's tests.
# shellcheck source=selftests/mrc/lib.sh
. "$(dirname "$0")/lib.sh"

check "running as root" test "$(id -u)" -eq 0
check "/proc is mounted" test -r /proc/self/status
check "/sys is mounted" test -d /sys/class/net
# shellcheck disable=SC2016 # expanded by the inner shell
check "/tmp is writable" sh -c 'f=$(mktemp) && echo x >"$f" && rm "$f"'
check_output "dmesg is readable" "." dmesg
check_output "loopback is up" "state UNKNOWN|LOOPBACK,UP" ip link show lo
check "modprobe finds the kernel's modules" modprobe dummy
check "rmmod works" rmmod dummy

# The framework's own helpers.
check_fail "check_fail sees a failure" false
check_output "check_output matches output" "^hello world$" echo "hello world"
check_output_fail "check_output_fail wants failure and output" "No such file" ls /nonexistent
check "REPO points at the source tree" test -f "$REPO/selftests/mrc/lib.sh"

# A failing check must produce "not ok", diagnostics and a non-zero exit.
nested=$(mktemp -d)
cat >"$nested/test_nested.sh" <<'NESTED'
. "$MRC_TEST_LIB"
check "a check that fails" sh -c 'echo some-output; exit 3'
check "a check that passes" true
done_testing
NESTED
export MRC_TEST_LIB=$REPO/selftests/mrc/lib.sh
check_output_fail "a failing check gives not ok and a non-zero exit" \
	"^not ok 1 - a check that fails$" bash "$nested/test_nested.sh"
check_output_fail "a failing check prints its command and output" \
	"^#   some-output$" bash "$nested/test_nested.sh"
check_output_fail "the nested script prints its plan" "^1\.\.2$" bash "$nested/test_nested.sh"
rm -rf "$nested"

# Namespaces and veth pairs as the tests use them.
check "ns_create h1" ns_create h1
check "ns_create h2" ns_create h2
check "veth_pair between two namespaces" veth_pair h1 a0 10.0.0.1/24 h2 b0 10.0.0.2/24
check "ping across the veth pair" ns_exec h1 ping -c 1 -w 10 10.0.0.2
check "veth_pair with the initial namespace, IPv6" \
	veth_pair - mrct0 fd00::1/64 h1 a1 fd00::2/64
check "ping6 from the initial namespace" ping -6 -c 1 -w 10 fd00::2

# The userspace RDMA stack the tests drive.
for tool in rdma ibv_devices ibv_devinfo ibv_rc_pingpong ib_write_bw; do
	check "$tool is installed" command -v "$tool"
done
if [ -f "$MRC_KO" ]; then
	check_output "mrc.ko is a module for this kernel" "^vermagic: +$(uname -r) " modinfo "$MRC_KO"
else
	skip "mrc.ko is a module for this kernel" "no $MRC_KO (make module)"
fi
if [ -x "$MRCCTL" ]; then
	ok "mrcctl is built ($MRCCTL)"
else
	skip "mrcctl is built" "no $MRCCTL (make userspace)"
fi
done_testing
