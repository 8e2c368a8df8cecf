#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Whether the userspace C++ follows the top-level .clang-format: one test
# per tracked .cpp/.hpp/.cc/.h under tools/ and lib/ (or per FILE given), failed
# when clang-format would change a line of it.  Ends with
# "format: N passed, N failed".
#
#   tools/check-format.sh [FILE...]
#   tools/check-format.sh --fix [FILE...]   rewrite the files instead
#   CLANG_FORMAT=clang-format-14            the binary (default clang-format)
#
# The kernel side (net/mrc, include/uapi) follows checkpatch instead
# (tools/testing/run-style.sh).
set -uo pipefail
cd "$(dirname "$0")/.."

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
fix=0
if [ "${1:-}" = --fix ]; then
	fix=1
	shift
fi

if ! command -v "$CLANG_FORMAT" >/dev/null; then
	echo "not ok - $CLANG_FORMAT is installed (apt-get install clang-format)"
	echo "format: 0 passed, 1 failed"
	exit 1
fi
if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files -- 'tools/*.cpp' 'tools/*.hpp' 'tools/*.cc' 'tools/*.h' 'lib/*.cpp' 'lib/*.hpp' 'lib/*.h' | LC_ALL=C sort)
fi

if [ $fix = 1 ]; then
	"$CLANG_FORMAT" --style=file -i "${files[@]}"
	exit
fi

pass=0
fail=0
for f in "${files[@]}"; do
	# The lines that would change, as a unified diff.
	d=$("$CLANG_FORMAT" --style=file "$f" | diff -u "$f" - | tail -n +3)
	if [ -z "$d" ]; then
		pass=$((pass + 1))
		continue
	fi
	fail=$((fail + 1))
	echo "not ok - $f: $(grep -c '^-' <<<"$d") lines differ from .clang-format"
	printf '%s\n' "$d" | head -n 40 | sed 's/^/#   /'
done
echo "format: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
