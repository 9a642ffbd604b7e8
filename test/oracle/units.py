#!/usr/bin/python3
"""Oracle for units.ts: libpcp's pmParseUnitsStr, pmUnitsStr_r and pmConvScale via ctypes.

stdin: {"parse": [text...], "format": [[dimS,dimT,dimC,scS,scT,scC]...],
        "convert": [{"type": T, "value": V, "from": [6 ints], "to": [6 ints]}...]}
stdout: {"parse": [...], "format": [...], "convert": [...]} in the same order, where
  parse   -> {"sts", "units": [6], "mult", "errmsg"} or {"crash": signal}
  format  -> string
  convert -> {"sts", "value"} or {"crash": signal}
64-bit integers travel as decimal strings; non-finite doubles as "NaN", "Infinity", "-Infinity".
Each libpcp call runs in a forked child, since some inputs make 6.0.3 abort or divide by zero.
"""
import ctypes
import json
import math
import os
import pickle
import sys

LIBPCP = ctypes.CDLL("libpcp.so.3")
LIBC = ctypes.CDLL("libc.so.6")


class Atom(ctypes.Union):
    _fields_ = [("l", ctypes.c_int32), ("ul", ctypes.c_uint32), ("ll", ctypes.c_int64),
                ("ull", ctypes.c_uint64), ("f", ctypes.c_float), ("d", ctypes.c_double)]


LIBPCP.pmParseUnitsStr.restype = ctypes.c_int
LIBPCP.pmParseUnitsStr.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32),
                                   ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_char_p)]
LIBPCP.pmUnitsStr_r.restype = ctypes.c_char_p
LIBPCP.pmUnitsStr_r.argtypes = [ctypes.POINTER(ctypes.c_uint32), ctypes.c_char_p, ctypes.c_int]
LIBPCP.pmConvScale.restype = ctypes.c_int
LIBPCP.pmConvScale.argtypes = [ctypes.c_int, ctypes.POINTER(Atom), ctypes.POINTER(ctypes.c_uint32),
                               ctypes.POINTER(Atom), ctypes.POINTER(ctypes.c_uint32)]


def sx4(v):
    return v - 16 if v & 8 else v


def decode(word):
    # little-endian gcc layout: pad:8 scaleCount:4 scaleTime:4 scaleSpace:4 dimCount:4 dimTime:4 dimSpace:4
    return [sx4((word >> 28) & 15), sx4((word >> 24) & 15), sx4((word >> 20) & 15),
            (word >> 16) & 15, (word >> 12) & 15, sx4((word >> 8) & 15)]


def encode(u):
    ds, dt, dc, ss, st, sc = u
    return ((ds & 15) << 28) | ((dt & 15) << 24) | ((dc & 15) << 20) | ((ss & 15) << 16) | ((st & 15) << 12) | ((sc & 15) << 8)


def num_out(x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def num_in(x):
    return float(x) if isinstance(x, str) else x


def isolated(fn):
    """Runs fn() in a child process; returns its result or {"crash": signal}."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            data = pickle.dumps(fn())
        except BaseException as e:  # report, never hide
            data = pickle.dumps({"exception": repr(e)})
        os.write(w, data)
        os._exit(0)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return {"crash": os.WTERMSIG(status)}
    return pickle.loads(b"".join(chunks))


def parse(text):
    def run():
        word = ctypes.c_uint32(0xffffffff)
        mult = ctypes.c_double(-99.0)
        err = ctypes.c_char_p()
        sts = LIBPCP.pmParseUnitsStr(text.encode(), ctypes.byref(word), ctypes.byref(mult), ctypes.byref(err))
        return {"sts": sts, "units": decode(word.value), "mult": num_out(mult.value),
                "errmsg": err.value.decode() if sts < 0 and err.value is not None else None}
    return isolated(run)


def fmt(u):
    word = ctypes.c_uint32(encode(u))
    buf = ctypes.create_string_buffer(64)
    return LIBPCP.pmUnitsStr_r(ctypes.byref(word), buf, 64).decode()


def convert(c):
    def run():
        t = c["type"]
        a = Atom()
        if t == 0:
            a.l = int(c["value"])
        elif t == 1:
            a.ul = int(c["value"])
        elif t == 2:
            a.ll = int(c["value"])
        elif t == 3:
            a.ull = int(c["value"])
        elif t == 4:
            a.f = num_in(c["value"])
        else:
            a.d = num_in(c["value"])
        out = Atom()
        iw = ctypes.c_uint32(encode(c["from"]))
        ow = ctypes.c_uint32(encode(c["to"]))
        sts = LIBPCP.pmConvScale(t, ctypes.byref(a), ctypes.byref(iw), ctypes.byref(out), ctypes.byref(ow))
        if sts < 0:
            return {"sts": sts, "value": None}
        v = {0: lambda: out.l, 1: lambda: out.ul, 2: lambda: str(out.ll), 3: lambda: str(out.ull),
             4: lambda: num_out(out.f), 5: lambda: num_out(out.d)}.get(t, lambda: None)()
        return {"sts": sts, "value": v}
    return isolated(run)


def main():
    req = json.load(sys.stdin)
    out = {
        "parse": [parse(t) for t in req.get("parse", [])],
        "format": [fmt(u) for u in req.get("format", [])],
        "convert": [convert(c) for c in req.get("convert", [])],
    }
    json.dump(out, sys.stdout)


main()
