#!/usr/bin/python3
"""Oracle for time/interval.ts and time/time-window.ts: pmParseHighResInterval and
pmParseHighResTimeWindow (libpcp 6.0.3) via ctypes.

stdin:  {"intervals": [spec...],
         "windows": [{"tz": TZ, "start": [s, ns], "end": [s, ns], "S": .., "T": .., "A": .., "O": ..}...]}
         (S/T/A/O null when not given)
stdout: {"intervals": [{"sts", "t": [s, ns], "errmsg"}...],
         "windows": [{"sts", "start", "end", "origin", "errmsg", "clock": [before, after]}...]}
Each window runs with pmNewZone(TZ) in force and glibc's mktime guess reset (as in a fresh
process); "clock" brackets the wall-clock second the call saw, for forms anchored at "now".
"""
import ctypes
import json
import os
import sys
import time

LIBPCP = ctypes.CDLL("libpcp.so.3")
LIBC = ctypes.CDLL("libc.so.6")
LIBC.free.argtypes = [ctypes.c_void_p]


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_int64), ("tv_nsec", ctypes.c_long)]


class Tm(ctypes.Structure):
    _fields_ = [("f", ctypes.c_int * 9), ("gmtoff", ctypes.c_long), ("zone", ctypes.c_char_p)]


LIBPCP.pmParseHighResInterval.restype = ctypes.c_int
LIBPCP.pmParseHighResInterval.argtypes = [ctypes.c_char_p, ctypes.POINTER(Timespec), ctypes.POINTER(ctypes.c_void_p)]
LIBPCP.pmParseHighResTimeWindow.restype = ctypes.c_int
LIBPCP.pmParseHighResTimeWindow.argtypes = [ctypes.c_char_p] * 4 + [ctypes.POINTER(Timespec)] * 5 + [ctypes.POINTER(ctypes.c_void_p)]
LIBPCP.pmNewZone.argtypes = [ctypes.c_char_p]
LIBC.mktime.restype = ctypes.c_int64
LIBC.mktime.argtypes = [ctypes.POINTER(Tm)]


def take(msg):
    if not msg.value:
        return None
    text = ctypes.string_at(msg.value).decode()
    LIBC.free(msg.value)
    return text


def reset_mktime_guess():
    saved = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    LIBC.tzset()
    tm = Tm()
    tm.f[3], tm.f[5] = 1, 100
    LIBC.mktime(ctypes.byref(tm))
    if saved is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = saved
    LIBC.tzset()


def interval(spec):
    t = Timespec()
    msg = ctypes.c_void_p()
    sts = LIBPCP.pmParseHighResInterval(spec.encode(), ctypes.byref(t), ctypes.byref(msg))
    return {"sts": sts, "t": [t.tv_sec, t.tv_nsec] if sts >= 0 else None, "errmsg": take(msg)}


def window(w):
    reset_mktime_guess()
    LIBPCP.pmUseZone(LIBPCP.pmNewZone(w["tz"].encode()))
    arg = lambda k: w[k].encode() if w.get(k) is not None else None
    ls, le = Timespec(*w["start"]), Timespec(*w["end"])
    rs, re_, ro = Timespec(), Timespec(), Timespec()
    msg = ctypes.c_void_p()
    before = int(time.time())
    sts = LIBPCP.pmParseHighResTimeWindow(arg("S"), arg("T"), arg("A"), arg("O"), ctypes.byref(ls), ctypes.byref(le),
                                          ctypes.byref(rs), ctypes.byref(re_), ctypes.byref(ro), ctypes.byref(msg))
    after = int(time.time())
    ts = lambda t: [t.tv_sec, t.tv_nsec]
    return {"sts": sts, "start": ts(rs), "end": ts(re_), "origin": ts(ro), "errmsg": take(msg), "clock": [before, after]}


req = json.load(sys.stdin)
json.dump({"intervals": [interval(s) for s in req.get("intervals", [])],
           "windows": [window(w) for w in req.get("windows", [])]}, sys.stdout)
