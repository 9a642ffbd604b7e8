#!/usr/bin/python3
"""Oracle for time/zone.ts and time/format.ts: libpcp's pmNewZone + pmUseZone, then
pmLocaltime, pmCtime and __pmMktime (what -S/-T/-O dates go through), via ctypes.

stdin:  {"zones": [{"tz": TZ, "instants": [sec...]}...],
         "mktime": [{"tz": TZ, "fields": [year, mon0, mday, hour, min, sec, isdst]}...]}
stdout: {"zones": [[[year, mon0, mday, hour, min, sec, wday, yday, isdst, gmtoff, zone, ctime]...]...],
         "mktime": [sec | null...]}
Before each mktime case glibc's mktime offset guess is reset to 0 (a mktime under TZ=UTC),
as in a fresh process.
"""
import ctypes
import json
import os
import sys

LIBPCP = ctypes.CDLL("libpcp.so.3")
LIBC = ctypes.CDLL("libc.so.6")


class Tm(ctypes.Structure):
    _fields_ = [("tm_sec", ctypes.c_int), ("tm_min", ctypes.c_int), ("tm_hour", ctypes.c_int),
                ("tm_mday", ctypes.c_int), ("tm_mon", ctypes.c_int), ("tm_year", ctypes.c_int),
                ("tm_wday", ctypes.c_int), ("tm_yday", ctypes.c_int), ("tm_isdst", ctypes.c_int),
                ("tm_gmtoff", ctypes.c_long), ("tm_zone", ctypes.c_char_p)]


LIBPCP.pmNewZone.restype = ctypes.c_int
LIBPCP.pmNewZone.argtypes = [ctypes.c_char_p]
LIBPCP.pmUseZone.restype = ctypes.c_int
LIBPCP.pmUseZone.argtypes = [ctypes.c_int]
LIBPCP.pmLocaltime.restype = ctypes.POINTER(Tm)
LIBPCP.pmLocaltime.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(Tm)]
LIBPCP.pmCtime.restype = ctypes.c_char_p
LIBPCP.pmCtime.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_char_p]
LIBPCP.__pmMktime.restype = ctypes.c_int64
LIBPCP.__pmMktime.argtypes = [ctypes.POINTER(Tm)]
LIBC.mktime.restype = ctypes.c_int64
LIBC.mktime.argtypes = [ctypes.POINTER(Tm)]
LIBC.tzset.restype = None


def use(tz):
    h = LIBPCP.pmNewZone(tz.encode())
    LIBPCP.pmUseZone(h)


def local(sec):
    t = ctypes.c_int64(sec)
    tm = Tm()
    LIBPCP.pmLocaltime(ctypes.byref(t), ctypes.byref(tm))
    buf = ctypes.create_string_buffer(64)
    text = LIBPCP.pmCtime(ctypes.byref(t), buf).decode()
    return [tm.tm_year + 1900, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_wday,
            tm.tm_yday, tm.tm_isdst, tm.tm_gmtoff, tm.tm_zone.decode() if tm.tm_zone is not None else None, text.rstrip("\n")]


def reset_mktime_guess():
    saved = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    LIBC.tzset()
    tm = Tm(0, 0, 0, 1, 0, 100, 0, 0, 0, 0, None)
    LIBC.mktime(ctypes.byref(tm))
    if saved is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = saved
    LIBC.tzset()


def mktime(tz, f):
    reset_mktime_guess()
    use(tz)
    year, mon, mday, hour, minute, sec, isdst = f
    tm = Tm(sec, minute, hour, mday, mon, year - 1900, 0, 0, isdst, 0, None)
    r = LIBPCP.__pmMktime(ctypes.byref(tm))
    return None if r == -1 else r


req = json.load(sys.stdin)
out = {"zones": [], "mktime": []}
for z in req.get("zones", []):
    use(z["tz"])
    out["zones"].append([local(s) for s in z["instants"]])
for m in req.get("mktime", []):
    out["mktime"].append(mktime(m["tz"], m["fields"]))
json.dump(out, sys.stdout)
