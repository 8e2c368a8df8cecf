#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The direction of calls in net/mrc (Documentation/networking/mrc-layout.rst),
# checked on the built objects: run after "make module" (or "make all").
#
# Each object's global symbols (nm: defined vs undefined) give the call
# graph between files; the #include lines of the sources give the include
# graph.  Files are classed as
#   netlink  netlink*.c: the generic netlink ops (top);
#   entry    main.c: module init and exit, which register every layer;
#   event    nl_event.c: the family and the events (bottom of the glue);
#   proto    proto/*.c: the portable engine;
#   core     everything else (objects, routes, profiles, data path).
# and the rules are
#   calls    no file other than netlink and entry references a symbol
#            defined in a netlink file;
#   include  no source other than a netlink file includes netlink.h (the
#            ops' private header);
#   cycle    no cycle of the call graph contains both a netlink file and
#            a file of another class (the ops table in netlink.c and the
#            op files that use its helpers reference each other: that is
#            one layer, shown as a note, like the cycles inside the core);
#   extack   route.c builds no extack text (the ops write it).
# Output: one "ok"/"FAIL" line per check, then "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

dir=${1:-net/mrc}
if ! ls "$dir"/*.o >/dev/null 2>&1; then
	echo "check-layering: no objects in $dir: run make module first" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

{
	for o in "$dir"/*.o "$dir"/proto/*.o; do
		case $o in
		*/mrc.o | *.mod.o) continue ;;
		esac
		src=${o%.o}.c
		[ -f "$src" ] || continue
		nm "$o" | awk -v f="${src#"$dir"/}" '
			$1 == "U" { print "U", f, $2; next }
			NF == 3 && $2 ~ /^[TDBR]$/ { print "D", f, $3 }
			NF == 3 && $3 ~ /^__msg\./ { print "M", f, $3 }'
	done
	for s in "$dir"/*.c "$dir"/*.h; do
		sed -n 's/^#include "\(.*\)"/I '"${s#"$dir"/}"' \1/p' "$s"
	done
} | python3 -c '
import sys
from collections import defaultdict

defs, undefs, msgs = {}, defaultdict(set), defaultdict(set)
includes = defaultdict(set)
files = set()
for line in sys.stdin:
    kind, f, sym = line.split()
    if kind == "I":
        includes[f].add(sym)
        continue
    files.add(f)
    if kind == "D":
        defs[sym] = f
    elif kind == "U":
        undefs[f].add(sym)
    else:
        msgs[f].add(sym)

def cls(f):
    if f.startswith("proto/"):
        return "proto"
    if f.startswith("netlink"):
        return "netlink"
    if f == "main.c":
        return "entry"
    if f.startswith("nl_event"):
        return "event"
    return "core"

calls = defaultdict(set)		# file -> files it references
why = defaultdict(list)			# (from, to) -> symbols
for f in files:
    for sym in undefs[f]:
        t = defs.get(sym)
        if t and t != f:
            calls[f].add(t)
            why[(f, t)].append(sym)

passed = failed = 0
def check(ok, text, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + text)
    else:
        failed += 1
        print("FAIL " + text + (": " + detail if detail else ""))

for f in sorted(files):
    if cls(f) in ("netlink", "entry"):
        continue
    bad = sorted("%s (%s)" % (s, t) for t in calls[f] if cls(t) == "netlink"
                 for s in why[(f, t)])
    check(not bad, "calls: %s (%s) calls no netlink op file" % (f, cls(f)),
          ", ".join(bad))

for f in sorted(includes):
    if cls(f) == "netlink" or f == "netlink.h":
        continue
    check("netlink.h" not in includes[f],
          "include: %s does not include netlink.h" % f)

# Strongly connected components (Tarjan), over the call graph.
index, low, stack, onstack, sccs = {}, {}, [], set(), []
def strong(v):
    work = [(v, iter(sorted(calls[v])))]
    index[v] = low[v] = len(index)
    stack.append(v)
    onstack.add(v)
    while work:
        v, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                onstack.add(w)
                work.append((w, iter(sorted(calls[w]))))
                break
            if w in onstack:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                sccs.append(sorted(comp))
for f in sorted(files):
    if f not in index:
        strong(f)
cycles = [c for c in sccs if len(c) > 1]
through = [c for c in cycles if any(cls(f) == "netlink" for f in c) and
           any(cls(f) != "netlink" for f in c)]
check(not through, "cycle: no call cycle runs through netlink and another layer",
      "; ".join("%d files: %s" % (len(c), " ".join(c)) for c in through))
for c in cycles:
    if c not in through:
        print("note: call cycle inside the %s layer: %s"
              % ("/".join(sorted(set(cls(f) for f in c))), " ".join(c)))

route_text = sorted(msgs["route.c"]) + sorted(
    s for s in undefs["route.c"]
    if s in ("do_trace_netlink_extack", "mrc_nl_msg"))
check("route.c" in files and not route_text,
      "extack: route.c builds no extack text", " ".join(route_text))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
'
