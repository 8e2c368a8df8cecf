#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The files generated from Documentation/netlink/specs/mrc.yaml must be
# what tools/netlink/mrc-gen.py makes of it now: regenerate into a
# temporary directory and compare, the three files of the tree and the
# nl_policy.hpp the build made for mrcctl (run "make" first).  Prints
# "spec: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
built=build/tools/mrcctl/gen/nl_policy.hpp
if ! python3 tools/netlink/mrc-gen.py --out "$tmp" ||
	! python3 tools/netlink/mrc-gen.py --mrcctl "$tmp/$built"; then
	echo "mrc-gen.py failed"
	echo "spec: 0 passed, 1 failed"
	exit 1
fi
# compare FILE WHAT FIX: FILE as the spec makes it now ($tmp/FILE)?
compare() {
	if [ ! -f "$1" ]; then
		echo "not ok: $1 is missing ($3)"
		fail=$((fail + 1))
	elif diff -u "$1" "$tmp/$1"; then
		echo "ok: $1 $2"
		pass=$((pass + 1))
	else
		echo "not ok: $1 differs from what the spec generates ($3)"
		fail=$((fail + 1))
	fi
}
for f in include/uapi/linux/mrc.h net/mrc/nl_policy.h net/mrc/nl_policy.c; do
	compare "$f" "matches the spec" "run tools/netlink/mrc-gen.py"
done
compare "$built" "(mrcctl's policies, as built) matches the spec" "run make"
echo "spec: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
