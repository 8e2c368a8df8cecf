#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel side's style and static checks, each finding a failure:
#   - checkpatch.pl --strict over every tracked .c/.h of net/mrc (the
#     protocol engine included) and include/uapi, one test per file;
#   - sparse (make C=2, -Wsparse-error) over the module, one test.
# checkpatch comes from Debian's linux-source-6.1 (tools/deps.sh installs
# it): the three files it needs are extracted into build/checkpatch once.
# Ends with "style: N passed, N failed".
#
#   tools/testing/run-style.sh [FILE...]   (default: every file above)
#   MRC_STYLE_NO_SPARSE=1                  checkpatch only
set -uo pipefail
cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
SRC_TAR=${MRC_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
CP_DIR=$BUILD/checkpatch
CHECKPATCH=$CP_DIR/checkpatch.pl
KDIR=${KDIR:-$(find /lib/modules -mindepth 2 -maxdepth 2 -path '*-amd64/build' 2>/dev/null | sort | head -n 1)}

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }
summary() { echo "style: $pass passed, $fail failed"; }

# Findings that are the point of the file, not a slip: the compat header
# is the one place an out-of-tree module must test the kernel version.
declare -A IGNORE=(
	[net/mrc/compat.h]=LINUX_VERSION_CODE
)

# checkpatch.pl with spelling.txt and const_structs.checkpatch next to it
# (with --no-tree it looks for them in its own directory).
get_checkpatch() {
	local f top=linux-source-6.1/scripts
	[ -x "$CHECKPATCH" ] && [ -f "$CP_DIR/spelling.txt" ] &&
		[ -f "$CP_DIR/const_structs.checkpatch" ] && return 0
	if [ ! -f "$SRC_TAR" ]; then
		echo "# no $SRC_TAR: run tools/deps.sh (package linux-source-6.1)"
		return 1
	fi
	mkdir -p "$CP_DIR" || return 1
	echo "# extracting checkpatch.pl from $SRC_TAR"
	tar -xJf "$SRC_TAR" -C "$CP_DIR" --strip-components=2 \
		$top/checkpatch.pl $top/spelling.txt $top/const_structs.checkpatch || return 1
	for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
		[ -f "$CP_DIR/$f" ] || return 1
	done
	chmod +x "$CHECKPATCH"
}

if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files -- 'net/mrc/*.c' 'net/mrc/*.h' 'include/uapi/*.h' | LC_ALL=C sort)
fi

if get_checkpatch; then
	for f in "${files[@]}"; do
		opts=(--strict --no-tree --no-summary --terse --show-types --color=never -f)
		[ -n "${IGNORE[$f]:-}" ] && opts+=(--ignore "${IGNORE[$f]}")
		out=$(perl "$CHECKPATCH" "${opts[@]}" "$f" 2>&1)
		rc=$?
		if [ $rc -eq 0 ] && [ -z "$out" ]; then
			ok "checkpatch $f"
		else
			not_ok "checkpatch $f"
			printf '%s\n' "$out" | sed 's/^/#   /'
		fi
	done
else
	not_ok "checkpatch.pl available"
fi

if [ "${MRC_STYLE_NO_SPARSE:-0}" != 1 ]; then
	if [ -z "$KDIR" ] || ! command -v sparse >/dev/null; then
		not_ok "sparse: no kernel headers or no sparse (run tools/deps.sh)"
	else
		# The module's own flags (Makefile), so the objects stay valid for
		# "make module"; C=2 checks every source, built or not.
		log=$(mktemp)
		nice make -C "$KDIR" M="$PWD" W=1 KCFLAGS=-Werror C=2 \
			CHECK="sparse -Wsparse-error" modules >"$log" 2>&1
		rc=$?
		found=$(grep -E '(warning|error):' "$log")
		checked=$(grep -c '^  CHECK ' "$log")
		if [ $rc -eq 0 ] && [ -z "$found" ] && [ "$checked" -gt 0 ]; then
			ok "sparse C=2 over net/mrc ($checked files)"
		else
			not_ok "sparse C=2 over net/mrc (exit $rc, $checked files checked)"
			[ -n "$found" ] || found=$(tail -n 30 "$log")
			printf '%s\n' "$found" | sed 's/^/#   /'
		fi
		rm -f "$log"
	fi
fi

summary
[ "$fail" -eq 0 ]
