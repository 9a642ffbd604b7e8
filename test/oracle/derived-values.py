#!/usr/bin/python3
"""Oracle for derived metrics on an archive: registers each [name, expression] with
pmRegisterDerivedMetric, opens the archive, binds every metric with pmLookupDesc (capturing
what libpcp prints on stderr, i.e. semantic errors), then fetches them all together in FORW
or INTERP mode and reports every value.

stdin: {"archive": path, "mode": "forw"|"interp", "deltaMs": int, "samples": int,
        "metrics": [[name, expr], ...], "lookupOnly": bool}, or {"host": "localhost", "mode": "live", ...} for pmcd
stdout: {"register": [{"status", "message"}], "bind": [{"pmid", "desc"|null, "error"|null,
         "stderr"}], "samples": [{"sec", "usec", "sets": [{"numval", "inst", "values"}]}]}
64-bit integers are sent as strings, doubles as repr() strings (inf, nan included)."""
import json
import os
import sys
import tempfile
from ctypes import POINTER, byref, c_char_p, c_int, c_uint

import cpmapi as c_api
from pcp import pmapi

LIB = pmapi.LIBPCP
LIB.pmRegisterDerivedMetric.restype = c_int
LIB.pmRegisterDerivedMetric.argtypes = [c_char_p, c_char_p, POINTER(c_char_p)]


def value_of(ctx, valfmt, v, vtype):
    if vtype in (c_api.PM_TYPE_32, c_api.PM_TYPE_U32, c_api.PM_TYPE_64, c_api.PM_TYPE_U64,
                 c_api.PM_TYPE_FLOAT, c_api.PM_TYPE_DOUBLE, c_api.PM_TYPE_STRING):
        atom = ctx.pmExtractValue(valfmt, v, vtype, vtype)
        if vtype == c_api.PM_TYPE_32:
            return atom.l
        if vtype == c_api.PM_TYPE_U32:
            return atom.ul
        if vtype == c_api.PM_TYPE_64:
            return str(atom.ll)
        if vtype == c_api.PM_TYPE_U64:
            return str(atom.ull)
        if vtype == c_api.PM_TYPE_FLOAT:
            return repr(float(atom.f))
        if vtype == c_api.PM_TYPE_DOUBLE:
            return repr(float(atom.d))
        return atom.cp.decode("utf-8", "replace") if atom.cp is not None else None
    return None


def main():
    req = json.load(sys.stdin)
    out = {"register": [], "bind": [], "samples": []}
    # lookupOnly: the names come from libpcp's own configuration ($PCP_DERIVED_CONFIG).
    for name, expr in [] if req.get("lookupOnly") else req["metrics"]:
        msg = c_char_p()
        status = LIB.pmRegisterDerivedMetric(name.encode(), expr.encode(), byref(msg))
        out["register"].append({"status": status, "message": msg.value.decode() if msg.value else None})

    # libpcp prints semantic errors on stderr while binding: read them per metric.
    capture = tempfile.TemporaryFile()
    saved = os.dup(2)
    os.dup2(capture.fileno(), 2)
    try:
        if req.get("host") is not None:
            ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, req["host"])
        else:
            ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, req["archive"])
        pmids = []
        descs = []
        for name, _ in req["metrics"]:
            before = os.lseek(2, 0, os.SEEK_CUR)
            entry = {"pmid": None, "desc": None, "error": None, "stderr": ""}
            try:
                pmid = ctx.pmLookupName(name)[0]
                entry["pmid"] = pmid
                d = ctx.pmLookupDesc(pmid)
                entry["desc"] = {"type": d.type, "sem": d.sem, "indom": d.indom,
                                 "units": ctx.pmUnitsStr(d.units)}
                pmids.append(pmid)
                descs.append(d)
            except pmapi.pmErr as e:
                entry["error"] = e.args[0]
            after = os.lseek(2, 0, os.SEEK_CUR)
            os.lseek(capture.fileno(), before, os.SEEK_SET)
            entry["stderr"] = os.read(capture.fileno(), after - before).decode("utf-8", "replace")
            os.lseek(2, after, os.SEEK_SET)
            out["bind"].append(entry)
    finally:
        os.dup2(saved, 2)
        os.close(saved)

    if req["mode"] == "interp":
        ctx.pmSetMode(c_api.PM_MODE_INTERP, ctx.pmGetArchiveLabel().start, req["deltaMs"])
    elif req["mode"] == "forw":
        ctx.pmSetMode(c_api.PM_MODE_FORW, ctx.pmGetArchiveLabel().start, 0)
    if not pmids:
        json.dump(out, sys.stdout)
        return
    types = [d.type for d in descs]
    pmid_array = (c_uint * len(pmids))(*pmids)
    for _ in range(req["samples"]):
        try:
            result = ctx.pmFetch(pmid_array)
        except pmapi.pmErr as e:
            if e.args[0] == c_api.PM_ERR_EOL:
                break
            raise
        r = result.contents
        sample = {"sec": r.timestamp.tv_sec, "usec": r.timestamp.tv_usec, "sets": []}
        for k in range(r.numpmid):
            numval = r.get_numval(k)
            valfmt = r.get_valfmt(k)
            entry = {"numval": numval, "inst": [], "values": []}
            for i in range(max(0, numval)):
                v = r.get_vlist(k, i)
                entry["inst"].append(v.inst)
                entry["values"].append(value_of(ctx, valfmt, v, types[k]))
            sample["sets"].append(entry)
        out["samples"].append(sample)
        ctx.pmFreeResult(result)
    json.dump(out, sys.stdout)


main()
