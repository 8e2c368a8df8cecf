#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The files generated from Documentation/netlink/specs/mrc.yaml must be
# what tools/netlink/mrc-gen.py makes of it now: regenerate into a
# temporary directory and compare.  Prints "spec: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
if ! python3 tools/netlink/mrc-gen.py --out "$tmp"; then
	echo "mrc-gen.py failed"
	echo "spec: 0 passed, 1 failed"
	exit 1
fi
for f in include/uapi/linux/mrc.h net/mrc/nl_policy.h net/mrc/nl_policy.c \
	 tools/mrcctl/nl_policy.hpp; do
	if diff -u "$f" "$tmp/$f"; then
		echo "ok: $f matches the spec"
		pass=$((pass + 1))
	else
		echo "not ok: $f differs from what the spec generates (run tools/netlink/mrc-gen.py)"
		fail=$((fail + 1))
	fi
done
echo "spec: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
