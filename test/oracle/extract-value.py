#!/usr/bin/python3
"""Oracle for values.ts: libpcp's pmExtractValue through ctypes.

stdin: [{"itype": T, "otype": T, "valfmt": 0|1|2, "value": V}...] where V is an integer
(64-bit ones as decimal strings), a number or "NaN"/"Infinity"/"-Infinity" for FLOAT and
DOUBLE, a string for STRING, hex bytes for AGGREGATE.
stdout: [{"sts": n, "value": V}...] with V encoded the same way (null on error; an AGGREGATE
result is the hex of the returned block's payload).
"""
import ctypes
import json
import math
import struct
import sys

LIBPCP = ctypes.CDLL("libpcp.so.3")
LIBC = ctypes.CDLL("libc.so.6")
LIBC.free.argtypes = [ctypes.c_void_p]


class Atom(ctypes.Union):
    _fields_ = [("l", ctypes.c_int32), ("ul", ctypes.c_uint32), ("ll", ctypes.c_int64),
                ("ull", ctypes.c_uint64), ("f", ctypes.c_float), ("d", ctypes.c_double),
                ("cp", ctypes.c_void_p)]


class ValueUnion(ctypes.Union):
    _fields_ = [("pval", ctypes.c_void_p), ("lval", ctypes.c_int32)]


class PmValue(ctypes.Structure):
    _fields_ = [("inst", ctypes.c_int32), ("value", ValueUnion)]


LIBPCP.pmExtractValue.restype = ctypes.c_int
LIBPCP.pmExtractValue.argtypes = [ctypes.c_int, ctypes.POINTER(PmValue), ctypes.c_int, ctypes.POINTER(Atom), ctypes.c_int]


def real_in(x):
    return float(x) if isinstance(x, str) else float(x)


def real_out(x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def payload(itype, v):
    if itype == 2:
        return struct.pack("<q", int(v))
    if itype == 3:
        return struct.pack("<Q", int(v))
    if itype == 4:
        return struct.pack("<f", real_in(v))
    if itype == 5:
        return struct.pack("<d", real_in(v))
    if itype == 6:
        return v.encode() + b"\0"
    if itype == 7:
        return bytes.fromhex(v)
    if itype in (0, 255):
        return struct.pack("<i", int(v))
    if itype == 1:
        return struct.pack("<I", int(v))
    return b""


def extract(case):
    itype, otype, valfmt, v = case["itype"], case["otype"], case["valfmt"], case["value"]
    pv = PmValue()
    pv.inst = 0
    keep = None
    if valfmt == 0:
        if itype == 4:
            pv.value.lval = struct.unpack("<i", struct.pack("<f", real_in(v)))[0]
        elif itype == 1:
            pv.value.lval = struct.unpack("<i", struct.pack("<I", int(v)))[0]
        elif itype in (0, 255):
            pv.value.lval = int(v)
        else:
            pv.value.lval = 0  # types libpcp refuses in situ: the word is never read
    else:
        body = payload(itype, v)
        vlen = 4 + len(body)
        header = struct.pack("<I", (vlen & 0xffffff) | ((itype & 0xff) << 24))
        keep = ctypes.create_string_buffer(header + body, vlen + 8)
        pv.value.pval = ctypes.addressof(keep)
    out = Atom()
    sts = LIBPCP.pmExtractValue(valfmt, ctypes.byref(pv), itype, ctypes.byref(out), otype)
    if sts < 0:
        return {"sts": sts, "value": None}
    if otype == 0:
        value = out.l
    elif otype == 1:
        value = out.ul
    elif otype == 2:
        value = str(out.ll)
    elif otype == 3:
        value = str(out.ull)
    elif otype == 4:
        value = real_out(out.f)
    elif otype == 5:
        value = real_out(out.d)
    elif otype == 6:
        value = ctypes.string_at(out.cp).decode()
        LIBC.free(out.cp)
    elif otype == 7:
        hdr = struct.unpack("<I", ctypes.string_at(out.cp, 4))[0]
        value = ctypes.string_at(out.cp + 4, (hdr & 0xffffff) - 4).hex()
        LIBC.free(out.cp)
    else:
        value = None
    return {"sts": sts, "value": value}


json.dump([extract(c) for c in json.load(sys.stdin)], sys.stdout)
