#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bounded libFuzzer pass over every fuzz target (ours and the engine's).
#
#   MRC_FUZZ_SECONDS   seconds per target (default 20); longer on demand
#   MRC_FUZZ_BUILD     build tree (default build/fuzz)
#
# Configures the clang + ASan/UBSan tree if needed, builds the fuzz_*
# targets with -j2, then runs each build/fuzz/bin/fuzz_* on a scratch copy
# of its seed corpus (tools/testing/fuzz/corpus/<target>/, may be absent)
# so that the repository is never written.  A target passes iff it exits 0
# and its log shows no sanitizer report, crash, leak or timeout.  Crash
# inputs are kept in $MRC_FUZZ_BUILD/artifacts/.  The output ends with
# "fuzz: N passed, N failed" (tools/check.sh reads it).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

secs=${MRC_FUZZ_SECONDS:-20}
bdir=${MRC_FUZZ_BUILD:-build/fuzz}
corpus_root=tools/testing/fuzz/corpus

summary() {
	echo "fuzz: $1 passed, $2 failed"
	[ "$2" -eq 0 ]
	exit
}

if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
	echo "run-fuzz: clang not found (tools/deps.sh installs it)"
	summary 0 1
fi

if [ ! -f "$bdir/CMakeCache.txt" ]; then
	mkdir -p "$bdir"
	if ! cmake -S . -B "$bdir" -DCMAKE_C_COMPILER=clang \
		-DCMAKE_CXX_COMPILER=clang++ -DMRC_FUZZ=ON \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$bdir/configure.log" 2>&1; then
		cat "$bdir/configure.log"
		echo "run-fuzz: configuring $bdir failed"
		summary 0 1
	fi
fi

# Build only the fuzz targets: the other userspace programs are not
# needed here and are built (with gcc) by the normal tree.
targets=()
for src in tools/testing/fuzz/fuzz_*.cc; do
	[ -e "$src" ] && targets+=("$(basename "$src" .cc)")
done
if [ ${#targets[@]} -gt 0 ]; then
	# Re-run the glob of the CMake files so new targets are known.
	cmake "$bdir" >/dev/null 2>&1
	if ! cmake --build "$bdir" -j2 --target "${targets[@]}"; then
		echo "run-fuzz: build failed"
		summary 0 "${#targets[@]}"
	fi
fi

mkdir -p "$bdir/artifacts"
pass=0
fail=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

for bin in "$bdir"/bin/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	work="$scratch/$name"
	mkdir -p "$work/corpus"
	if [ -d "$corpus_root/$name" ]; then
		cp -r "$corpus_root/$name/." "$work/corpus/"
	fi
	log="$work/log"
	"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
		-print_final_stats=1 \
		-artifact_prefix="$bdir/artifacts/$name-" \
		"$work/corpus" >"$log" 2>&1
	rc=$?
	runs=$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' "$log" | tail -n 1)
	if [ -z "$runs" ]; then
		runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
	fi
	bad=$(grep -E -m1 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|deadly signal|SUMMARY: (Address|Leak|Undefined)|ALARM: working on the last Unit' "$log")
	if [ "$rc" -eq 0 ] && [ -z "$bad" ] && [ -n "$runs" ]; then
		echo "PASS $name: ${runs} executions in ${secs} s"
		pass=$((pass + 1))
	else
		echo "FAIL $name: exit $rc, ${runs:-?} executions${bad:+: $bad}"
		tail -n 40 "$log" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done

summary "$pass" "$fail"
