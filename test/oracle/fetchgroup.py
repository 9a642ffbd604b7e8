#!/usr/bin/python3
"""Oracle for src/pcp-core/fetchgroup: python3-pcp's pmapi.fetchgroup on an archive.

stdin: {"archive": A, "mode": {"mode": "interp"|"forw"|"back", "origin": [sec, nsec],
        "delta": [sec, nsec]} | null, "regs": [
          {"kind": "item", "metric", "type", "instance"?, "scale"?},
          {"kind": "indom", "metric", "type", "maxnum", "scale"?},
          {"kind": "event", "metric", "field", "type", "maxnum", "instance"?, "scale"?},
          {"kind": "timestamp"}], "fetches": N,
        "derived": [[name, expr], ...] (optional: pmRegisterDerivedMetric before the context)}
stdout: {"register": [0 | -1 per derived metric] (only with "derived"), "extend": [0 | error code per registration], "fetches": [{"sts": status,
         "outs": [per registration that extended: item {"sts", "value"}; indom {"sts",
         "num", "codes", "names", "stss", "values"} (all maxnum slots); event {"sts", "num",
         "times", "stss", "values"}; timestamp {"sec", "nsec"}]}]}
Values: integers as decimal strings, floats as "f:" + repr ("f:nan" for NaN), strings as
"s:" + text, an empty STRING output as null.
"""
import json
import math
import os
import sys
from ctypes import POINTER, byref, c_char_p, c_int

from pcp import pmapi
import cpmapi as c_api

pmapi.LIBPCP.pmRegisterDerivedMetric.restype = c_int
pmapi.LIBPCP.pmRegisterDerivedMetric.argtypes = [c_char_p, c_char_p, POINTER(c_char_p)]

MODES = {"interp": c_api.PM_MODE_INTERP, "forw": c_api.PM_MODE_FORW, "back": c_api.PM_MODE_BACK}


def enc(atom, t):
    if t == c_api.PM_TYPE_STRING:
        p = atom.cp
        return None if not p else "s:" + p.decode("utf-8", "replace")
    v = atom.dref(t)
    if isinstance(v, float):
        return "f:nan" if math.isnan(v) else "f:" + repr(v)
    return str(v)


def signed(u):
    return u - (1 << 32) if u >= (1 << 31) else u


def main():
    req = json.load(sys.stdin)
    # Global derived metrics are seen by contexts created afterwards, the fetchgroup's included.
    register = []
    for name, expr in req.get("derived", []):
        msg = c_char_p()
        register.append(pmapi.LIBPCP.pmRegisterDerivedMetric(name.encode(), expr.encode(), byref(msg)))
    fg = pmapi.fetchgroup(c_api.PM_CONTEXT_ARCHIVE, req["archive"])
    m = req.get("mode")
    if m:
        fg.get_context().pmSetModeHighRes(MODES[m["mode"]], pmapi.timespec(*m["origin"]), pmapi.timespec(*m["delta"]))
    regs = []
    extend = []
    for r in req["regs"]:
        try:
            if r["kind"] == "item":
                h = fg.extend_item(metric=r["metric"], mtype=r["type"], scale=r.get("scale"), instance=r.get("instance"))
            elif r["kind"] == "indom":
                h = fg.extend_indom(metric=r["metric"], mtype=r["type"], scale=r.get("scale"), maxnum=r["maxnum"])
            elif r["kind"] == "event":
                h = fg.extend_event(metric=r["metric"], field=r["field"], ftype=r["type"], scale=r.get("scale"),
                                    instance=r.get("instance"), maxnum=r["maxnum"])
            else:
                h = fg.extend_timespec()
            regs.append((r, h))
            extend.append(0)
        except pmapi.pmErr as e:
            extend.append(e.args[0])
    fetches = []
    for _ in range(req["fetches"]):
        try:
            sts = fg.fetch()
        except pmapi.pmErr as e:
            sts = e.args[0]
        outs = []
        for r, h in regs:
            if r["kind"] == "item":
                outs.append({"sts": h.sts.value, "value": enc(h.value, r["type"])})
            elif r["kind"] == "indom":
                n = r["maxnum"]
                outs.append({"sts": h.sts.value, "num": h.num.value,
                             "codes": [signed(h.icodes[i]) for i in range(n)],
                             "names": [h.inames[i].decode("utf-8", "replace") if h.inames[i] else None for i in range(n)],
                             "stss": [h.stss[i] for i in range(n)],
                             "values": [enc(h.values[i], r["type"]) for i in range(n)]})
            elif r["kind"] == "event":
                n = h.num.value
                outs.append({"sts": h.sts.value, "num": n,
                             "times": [[h.times[i].tv_sec, h.times[i].tv_nsec] for i in range(n)],
                             "stss": [h.stss[i] for i in range(n)],
                             "values": [enc(h.values[i], r["type"]) for i in range(n)]})
            else:
                outs.append({"sec": h.value.tv_sec, "nsec": h.value.tv_nsec})
        fetches.append({"sts": sts, "outs": outs})
    out = {"extend": extend, "fetches": fetches}
    if "derived" in req:
        out["register"] = register
    json.dump(out, sys.stdout)
    sys.stdout.flush()
    os._exit(0)


main()
