#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the userspace unit/property tests (ctest) and print "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp)
ctest --test-dir build --output-on-failure -j "$(nproc)" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$out" | tail -n 1)
rm -f "$out"
if [ -z "$line" ]; then
	echo "0 passed, 1 failed"
	exit 1
fi
total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
failed=$(sed -E 's/.*tests passed, ([0-9]+) tests failed.*/\1/' <<<"$line")
echo "unit: $((total - failed)) passed, $failed failed"
exit "$rc"
