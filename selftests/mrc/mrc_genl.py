#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""A small generic netlink client of the family "mrc" driven by its spec,
Documentation/netlink/specs/mrc.yaml: operations and attributes are named
as the spec names them and numbered, typed and nested from it, so a
renumbered attribute cannot silently break a test.  For the requests that
mrcctl never sends (missing, malformed or extra attributes).

Command line:
  mrc_genl.py [--dump] [--print] OP ARG...
sends one request of operation OP ("plane-get") and prints "ok" (exit 0)
or "error ENAME (strerror): extack message" (exit 1); --print adds each
reply, decoded by the spec, as one JSON line.  Each ARG is NAME=VALUE,
one attribute of OP's attribute set, or a Python expression (it starts
with "["): a list of (NAME, VALUE) pairs.

NAME is an attribute of the set the list belongs to ("id"), or
"SET.NAME" for one of another set ("ev.index", to put a wrong entry in a
list), or a number for an attribute no set has; ":TYPE" after it
(u8 u16 u32 u64 string binary flag nest) encodes the value as that type
instead of the spec's (a width the policy must refuse).

VALUE by type: integers for u8..u64; text for string; for binary a
"hex:..." string, an IPv4 or IPv6 address, or bytes; anything for a flag;
for a nest a list of pairs of the nested set (a list's entries: pairs
whose value is again a list, e.g. ("hops", [("hop", [("plane", 1),
("via", "10.1.0.2")])])).  A NAME=VALUE value that starts with "[" is
read as such a list.

As a module: Client().request(op, attrs, dump=False) returns
(errno, extack text, [decoded replies]).

  mrc_genl.py --serve DIR PID
serves the selftests' genl_py (lib.sh) until process PID is gone: one
Python process per test instead of one per request (a Python start that
loads the spec takes seconds in the TCG guest).  See serve().
"""

import ast
import ctypes
import errno
import io
import json
import os
import socket
import struct
import sys
import threading
import time
import traceback

import yaml

NLA_F_NESTED = 0x8000
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 16, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
NETLINK_GENERIC = 16
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
INTS = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}


def spec_path():
    if os.environ.get("MRC_SPEC"):
        return os.environ["MRC_SPEC"]
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", "Documentation", "netlink",
                        "specs", "mrc.yaml")


class Spec:
    _parsed = {}

    @classmethod
    def cached(cls):
        """The spec at spec_path(), parsed once per process."""
        path = spec_path()
        if path not in cls._parsed:
            cls._parsed[path] = cls(path)
        return cls._parsed[path]

    def __init__(self, path=None):
        with open(path or spec_path()) as f:
            # libyaml's parser: the pure-Python one takes seconds per
            # run in the TCG guest, and the selftests start this client
            # dozens of times.
            y = yaml.load(f, Loader=getattr(yaml, "CSafeLoader",
                                             yaml.SafeLoader))
        self.name = y["name"]
        self.version = y.get("version", 1)
        self.sets = {}
        for s in y["attribute-sets"]:
            by_name, by_value, val = {}, {}, 0
            for a in s["attributes"]:
                val = a.get("value", val + 1)
                a = dict(a, value=val)
                by_name[a["name"]] = a
                by_value[val] = a
            self.sets[s["name"]] = (by_name, by_value)
        self.ops, val = {}, 0
        for op in y["operations"]["list"]:
            val = op.get("value", val + 1)
            self.ops[op["name"]] = dict(op, value=val)

    def attr(self, set_name, name):
        """(number, type, nested set) of NAME in SET_NAME (see above)."""
        name, _, override = str(name).partition(":")
        if name.isdigit():
            return int(name), override or "binary", None
        if "." in name:
            set_name, name = name.split(".", 1)
        try:
            a = self.sets[set_name][0][name]
        except KeyError:
            sys.exit("mrc_genl: set %s has no attribute %s" % (set_name, name))
        return a["value"], override or a["type"], a.get("nested-attributes")


def attr(t, data):
    a = struct.pack("=HH", 4 + len(data), t) + data
    return a + b"\0" * (-len(a) % 4)


def binary(v):
    if isinstance(v, (bytes, bytearray)):
        return bytes(v)
    if v.startswith("hex:"):
        return bytes.fromhex(v[4:])
    for fam in (socket.AF_INET, socket.AF_INET6):
        try:
            return socket.inet_pton(fam, v)
        except OSError:
            pass
    sys.exit("mrc_genl: not hex:... nor an address: " + v)


def encode(spec, set_name, pairs):
    out = b""
    for name, v in pairs:
        t, typ, nested = spec.attr(set_name, name)
        if typ in INTS:
            out += attr(t, struct.pack(INTS[typ], int(v)))
        elif typ == "string":
            out += attr(t, v.encode() + b"\0")
        elif typ == "binary":
            out += attr(t, binary(v))
        elif typ == "flag":
            out += attr(t, b"")
        elif typ == "nest":
            out += attr(t | NLA_F_NESTED, encode(spec, nested, v))
        else:
            sys.exit("mrc_genl: cannot encode type " + typ)
    return out


def decode(spec, set_name, data):
    """The attributes in DATA as a dict by name; multi-attr: lists."""
    by_value = spec.sets[set_name][1]
    out, p = {}, 0
    while p + 4 <= len(data):
        ln, t = struct.unpack_from("=HH", data, p)
        if ln < 4:
            break
        body = data[p + 4:p + ln]
        p += (ln + 3) & ~3
        a = by_value.get(t & ~NLA_F_NESTED)
        if not a:
            out.setdefault("unknown", []).append(t)
            continue
        typ = a["type"]
        if typ in INTS:
            v = struct.unpack(INTS[typ], body)[0]
        elif typ == "string":
            v = body.split(b"\0")[0].decode()
        elif typ == "binary":
            v = body.hex()
        elif typ == "flag":
            v = True
        elif typ == "nest":
            v = decode(spec, a["nested-attributes"], body)
        else:
            continue
        if a.get("multi-attr"):
            out.setdefault(a["name"], []).append(v)
        else:
            out[a["name"]] = v
    return out


class Client:
    def __init__(self, spec=None):
        self.spec = spec or Spec.cached()
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.bind((0, 0))
        self.seq = 0
        body = struct.pack("=BBH", CTRL_CMD_GETFAMILY, 1, 0) + \
            attr(CTRL_ATTR_FAMILY_NAME, self.spec.name.encode() + b"\0")
        err, text, msgs = self._transact(GENL_ID_CTRL, body, NLM_F_ACK)
        self.family = None
        for m in msgs:
            p = 4
            while p + 4 <= len(m):
                ln, t = struct.unpack_from("=HH", m, p)
                if t == CTRL_ATTR_FAMILY_ID:
                    self.family = struct.unpack_from("=H", m, p + 4)[0]
                if ln < 4:
                    break
                p += (ln + 3) & ~3
        if self.family is None:
            sys.exit("mrc_genl: family %s not found (%s)" %
                     (self.spec.name, os.strerror(err) if err else text))

    def _transact(self, typ, body, flags):
        """Send one request; (errno, extack text, [genl payloads])."""
        self.seq += 1
        seq = self.seq
        self.s.send(struct.pack("=IHHII", 16 + len(body), typ,
                                NLM_F_REQUEST | flags, seq, 0) + body)
        msgs = []
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + 16 <= len(data):
                ln, t, fl, sq, _ = struct.unpack_from("=IHHII", data, off)
                if ln < 16:
                    break
                msg = data[off:off + ln]
                off += (ln + 3) & ~3
                if sq != seq:
                    continue
                if t in (NLMSG_ERROR, NLMSG_DONE):
                    err = -struct.unpack_from("=i", msg, 16)[0]
                    if t == NLMSG_DONE and not err:
                        return 0, "", msgs
                    tlv = 16 + 20 if t == NLMSG_ERROR else 16 + 4
                    text = ""
                    while fl & NLM_F_ACK_TLVS and tlv + 4 <= len(msg):
                        al, at = struct.unpack_from("=HH", msg, tlv)
                        if al < 4:
                            break
                        if at == NLMSGERR_ATTR_MSG:
                            text = msg[tlv + 4:tlv + al].split(b"\0")[0] \
                                .decode()
                        tlv += (al + 3) & ~3
                    if t == NLMSG_ERROR and not err and flags & NLM_F_DUMP:
                        continue
                    return err, text, msgs
                msgs.append(msg[16:])

    def request(self, op, pairs, dump=False):
        o = self.spec.ops[op]
        aset = o["attribute-set"]
        body = struct.pack("=BBH", o["value"], self.spec.version, 0) + \
            encode(self.spec, aset, pairs)
        err, text, msgs = self._transact(
            self.family, body, NLM_F_ACK | (NLM_F_DUMP if dump else 0))
        return err, text, [decode(self.spec, aset, m[4:]) for m in msgs]


def parse_args(args):
    pairs = []
    for a in args:
        if a.startswith("["):
            pairs += eval(a, {})  # the tests' own expressions
            continue
        name, _, v = a.partition("=")
        if v.startswith("["):
            v = ast.literal_eval(v)
        pairs.append((name, v))
    return pairs


CLONE_NEWNET = 0x40000000


def setns(path):
    """Move this thread into the network namespace at PATH (a file of
    /run/netns or /proc/PID/ns): sockets made after it live there."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, "setns %s: %s" % (path, os.strerror(e)))
    finally:
        os.close(fd)


def run_script(code, argv):
    """Run one genl_py script as "python3 -c" would: (exit status,
    stdout text, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, sys.stdout, sys.stderr
    sys.argv, sys.stdout, sys.stderr = ["-c"] + argv, out, err
    rc = 0
    try:
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as e:
        if e.code is None:
            rc = 0
        elif isinstance(e.code, int):
            rc = e.code
        else:
            print(e.code, file=err)
            rc = 1
    except BaseException:  # what python3 -c would print and exit 1 for
        traceback.print_exc(file=err)
        rc = 1
    finally:
        sys.argv, sys.stdout, sys.stderr = saved
    return rc, out.getvalue(), err.getvalue()


def serve(d, pid):
    """genl_py's server.  A request is the FIFO DIR/in opened, written
    and closed: NUL-terminated fields NS ("-": this process's own
    namespace), the script, its arguments.  The script runs with its
    netlink sockets in NS (entered for the request: a namespace deleted
    and made again by the test is the new one); its output goes to
    DIR/stdout and DIR/stderr, then its exit status to the FIFO DIR/out.
    The server ends with process PID (the test), removing DIR."""
    sys.modules.setdefault("mrc_genl", sys.modules[__name__])
    home = "/proc/self/ns/net"
    home_fd = os.open(home, os.O_RDONLY)
    fifo_in, fifo_out = os.path.join(d, "in"), os.path.join(d, "out")
    os.mkfifo(fifo_in)
    os.mkfifo(fifo_out)

    def watch():
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                for f in ("in", "out", "stdout", "stderr", "pid", "log"):
                    try:
                        os.unlink(os.path.join(d, f))
                    except OSError:
                        pass
                try:
                    os.rmdir(d)
                except OSError:
                    pass
                os._exit(0)
            except PermissionError:
                pass
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()
    with open(os.path.join(d, "pid"), "w") as f:
        f.write("%d\n" % os.getpid())
    compiled = {}
    libc = ctypes.CDLL(None, use_errno=True)
    while True:
        with open(fifo_in, "rb") as f:
            req = f.read()
        fields = req.split(b"\0")
        if len(fields) < 3:
            continue  # an empty or cut request: nobody waits for it
        ns, script = fields[0].decode(), fields[1].decode()
        argv = [a.decode() for a in fields[2:-1]]
        try:
            if ns != "-":
                setns(os.path.join("/run/netns", ns))
            if script not in compiled:
                compiled[script] = compile(script, "<genl_py>", "exec")
            rc, out, err = run_script(compiled[script], argv)
        except Exception as e:
            rc, out, err = 1, "", "genl_py: %s\n" % e
        finally:
            libc.setns(home_fd, CLONE_NEWNET)
        with open(os.path.join(d, "stdout"), "w") as f:
            f.write(out)
        with open(os.path.join(d, "stderr"), "w") as f:
            f.write(err)
        with open(fifo_out, "w") as f:
            f.write("%d\n" % (rc & 0xff))


def main(argv):
    if argv[:1] == ["--serve"] and len(argv) == 3:
        serve(argv[1], int(argv[2]))
        return 0
    dump = show = False
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--dump":
            dump = True
        elif opt == "--print":
            show = True
        else:
            sys.exit("mrc_genl: unknown option " + opt)
    if not argv:
        sys.exit(__doc__)
    c = Client()
    err, text, replies = c.request(argv[0], parse_args(argv[1:]), dump)
    if show:
        for r in replies:
            print(json.dumps(r, sort_keys=True))
    if err == 0:
        print("ok")
        return 0
    print("error %s (%s): %s" % (errno.errorcode.get(err, err),
                                 os.strerror(err), text))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
