#!/usr/bin/python3
"""Oracle for src/pcp-core/replay: a sequence of pmSetMode / pmFetch calls on an archive context.

stdin: {"archive": "A[,B...]", "metrics": [names] (or "pmids": [ints]),
        "steps": [ {"setMode": {"mode": "interp"|"forw"|"back", "origin": [sec, nsec] | null,
                                "delta": [sec, nsec], "timeval": bool}},
                   {"fetch": N}, {"fetchArchive": N}, {"end": true},
                   {"profile": {"op": "add"|"del", "metric": name|null, "insts": [ids]}} ]}
  "origin": null keeps the current time; "timeval": true calls pmSetMode with a timeval
  origin (microseconds) and a millisecond delta, as pmval does; otherwise pmSetModeHighRes.
stdout: {"pmids": [...], "out": [per step...]} where a fetch gives a list of
  {"sec", "nsec", "sets": [{"pmid", "numval", "values": [[inst, value]...]}]} or {"error": code};
  values: ints and strings as JSON strings (exact), floats as "f:" + repr, events as "<event>".
"""
import ctypes
import json
import os
import sys

from pcp import pmapi
import cpmapi as c_api

MODES = {"interp": c_api.PM_MODE_INTERP, "forw": c_api.PM_MODE_FORW, "back": c_api.PM_MODE_BACK}
LIBPCP = pmapi.LIBPCP


def value_text(valfmt, vlist, vtype):
    if vtype in (c_api.PM_TYPE_EVENT, c_api.PM_TYPE_HIGHRES_EVENT):
        return "<event>"
    if vtype in (c_api.PM_TYPE_AGGREGATE, c_api.PM_TYPE_AGGREGATE_STATIC):
        pval = vlist.value.pval.contents
        n = pval.vlen - 4
        raw = ctypes.string_at(ctypes.addressof(pval) + 4, n)
        return "hex:" + raw.hex()
    atom = pmapi.pmContext.pmExtractValue(valfmt, vlist, vtype, vtype)
    v = atom.dref(vtype)
    if isinstance(v, float):
        return "f:" + repr(v)
    return str(v)


def dump(result, types):
    r = result.contents
    sets = []
    for j in range(r.numpmid):
        numval = r.get_numval(j)
        pmid = r.get_pmid(j)
        values = []
        if numval > 0:
            valfmt = r.get_valfmt(j)
            vtype = types.get(pmid)
            for i in range(numval):
                vl = r.get_vlist(j, i)
                values.append([vl.inst, value_text(valfmt, vl, vtype) if vtype is not None else str(vl.value.lval)])
        sets.append({"pmid": pmid, "numval": numval, "values": values})
    return {"sec": r.timestamp.tv_sec, "nsec": r.timestamp.tv_nsec, "sets": sets}


def main():
    req = json.load(sys.stdin)
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, req["archive"])
    if "pmids" in req:
        pmids = list(req["pmids"])
    else:
        pmids = list(ctx.pmLookupName(req["metrics"]))
    types = {}
    for p in pmids:
        try:
            d = ctx.pmLookupDescs([p])[0]
            types[p] = d.type
        except pmapi.pmErr:
            pass
    arr = (pmapi.pmID * len(pmids))(*pmids) if pmids else None
    out = []
    for step in req["steps"]:
        if "setMode" in step:
            s = step["setMode"]
            mode = MODES[s["mode"]]
            origin = s.get("origin")
            delta = s.get("delta", [0, 0])
            if s.get("timeval"):
                tv = None
                if origin is not None:
                    tv = pmapi.timeval(origin[0], origin[1] // 1000)
                ms = delta[0] * 1000 + int(delta[1] / 1000000)
                ctx.pmSetMode(mode | c_api.PM_XTB_SET(c_api.PM_TIME_MSEC), tv, ms)
            else:
                ts = None
                if origin is not None:
                    ts = pmapi.timespec(origin[0], origin[1])
                ctx.pmSetModeHighRes(mode, ts, pmapi.timespec(delta[0], delta[1]))
            out.append(None)
        elif "fetch" in step:
            res = []
            for _ in range(step["fetch"]):
                try:
                    r = ctx.pmFetchHighRes(arr)
                    res.append(dump(r, types))
                    LIBPCP.pmFreeHighResResult(r)
                except pmapi.pmErr as e:
                    res.append({"error": e.args[0]})
            out.append(res)
        elif "fetchArchive" in step:
            res = []
            for _ in range(step["fetchArchive"]):
                try:
                    r = ctx.pmFetchHighResArchive()
                    all_types = {}
                    for j in range(r.contents.numpmid):
                        p = r.contents.get_pmid(j)
                        if p not in all_types:
                            try:
                                all_types[p] = ctx.pmLookupDescs([p])[0].type
                            except pmapi.pmErr:
                                pass
                    res.append(dump(r, all_types))
                    LIBPCP.pmFreeHighResResult(r)
                except pmapi.pmErr as e:
                    res.append({"error": e.args[0]})
            out.append(res)
        elif "end" in step:
            try:
                t = ctx.pmGetHighResArchiveEnd()
                out.append({"sec": t.tv_sec, "nsec": t.tv_nsec})
            except pmapi.pmErr as e:
                out.append({"error": e.args[0]})
        elif "profile" in step:
            p = step["profile"]
            indom = c_api.PM_INDOM_NULL
            if p.get("metric"):
                d = ctx.pmLookupDescs(ctx.pmLookupName([p["metric"]]))[0]
                indom = d.indom
            insts = p.get("insts") or []
            n = len(insts)
            lst = (ctypes.c_int * n)(*insts) if n else None
            LIBPCP.pmUseContext(ctx.ctx)
            if p["op"] == "add":
                sts = LIBPCP.pmAddProfile(indom, n, lst)
            else:
                sts = LIBPCP.pmDelProfile(indom, n, lst)
            out.append(sts)
    json.dump({"pmids": pmids, "out": out}, sys.stdout)
    sys.stdout.flush()
    # libpcp 6.0.3 can crash in pmDestroyContext after some backward interpolations (heap
    # damage while freeing its interpolation state); every answer is out by now.
    os._exit(0)


main()
