#!/usr/bin/python3
"""Oracle for time/timestamp.ts: libpcp's long double timestamp conversions via ctypes.

stdin:  {"toReal": [[sec, nsec]...], "sub": [[asec, ansec, bsec, bnsec]...], "fromReal": [x...]}
stdout: {"toReal": [double...], "sub": [double...], "fromReal": [[sec, nsec]...]}
"""
import ctypes
import json
import sys

LIBPCP = ctypes.CDLL("libpcp.so.3")


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_int64), ("tv_nsec", ctypes.c_long)]


LIBPCP.pmtimespecToReal.restype = ctypes.c_double
LIBPCP.pmtimespecToReal.argtypes = [ctypes.POINTER(Timespec)]
LIBPCP.pmtimespecSub.restype = ctypes.c_double
LIBPCP.pmtimespecSub.argtypes = [ctypes.POINTER(Timespec), ctypes.POINTER(Timespec)]
LIBPCP.pmtimespecFromReal.restype = None
LIBPCP.pmtimespecFromReal.argtypes = [ctypes.c_double, ctypes.POINTER(Timespec)]


def ts(sec, nsec):
    return Timespec(sec, nsec)


req = json.load(sys.stdin)
out = {"toReal": [], "sub": [], "fromReal": []}
for sec, nsec in req.get("toReal", []):
    out["toReal"].append(LIBPCP.pmtimespecToReal(ctypes.byref(ts(sec, nsec))))
for a, an, b, bn in req.get("sub", []):
    out["sub"].append(LIBPCP.pmtimespecSub(ctypes.byref(ts(a, an)), ctypes.byref(ts(b, bn))))
for x in req.get("fromReal", []):
    r = Timespec()
    LIBPCP.pmtimespecFromReal(float(x), ctypes.byref(r))
    out["fromReal"].append([r.tv_sec, r.tv_nsec])
json.dump(out, sys.stdout)
