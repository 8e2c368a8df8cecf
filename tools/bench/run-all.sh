#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make bench": every benchmark of tools/bench, one after the other, each
# in its own VM boot.  Exits non-zero if one of them could not run to its
# table (a benchmark reports numbers; it does not judge them).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rc=0
for b in verbs-vs-rxe.sh planes-tbf.sh; do
	echo "=== tools/bench/$b"
	"$here/$b" || rc=1
done
exit $rc
