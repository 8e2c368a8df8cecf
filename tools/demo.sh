#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make demo": install what is missing, make sure the module and mrcctl are
# built, then boot the test VM and run the narrated demo in it
# (selftests/mrc/demo.sh: two planes of leaf-spine routers, a verified
# transfer sprayed over them, a link cut and a plane down mid-transfer,
# with mrcctl's events), then the same engine at cluster scale on the
# simulator (tools/demo-sim.sh).
# On a real machine that can load modules, run selftests/mrc/demo.sh as
# root directly instead.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/deps.sh
# "make demo" has built everything already; run alone, build what is missing.
if [ ! -f net/mrc/mrc.ko ] || [ ! -x build/bin/mrcctl ]; then
	make all
fi
echo "demo: booting the VM (Debian's kernel under QEMU; the first boot"
echo "      also prepares a cached kernel image and initramfs)"
tools/vm/run --timeout "${MRC_DEMO_TIMEOUT:-900}" -- selftests/mrc/demo.sh

# The simulator runs the protocol engine mrc.ko links on a cluster-sized
# fabric: spraying and failover at a scale a VM cannot host.
echo
tools/demo-sim.sh
