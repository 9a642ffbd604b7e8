#!/usr/bin/python3
"""Oracle for src/pcp-core/context/live-context.ts: libpcp's answers on a live host context.

stdin: {"host": "localhost", "derived": [[name, expr], ...] (optional), "ops": [op, ...]}
  "derived" are registered with pmRegisterDerivedMetric before the context is created;
  each op is one of
  {"op": "names", "names": [...]}          pmLookupName, one name at a time: pmid or error code
  {"op": "traverse", "name": N}            pmTraversePMNS: leaf names in order
  {"op": "children", "name": N}            pmGetChildrenStatus: [[name, leaf], ...]
  {"op": "nameAll", "name": N}             pmNameAll of N's pmid
  {"op": "descs", "names": [...]}          pmLookupDesc: {pmid, type, indom, sem, units} (units as the word)
  {"op": "indom", "name": N}               pmGetInDom of N's indom: [[inst, name], ...] sorted by inst
  {"op": "text", "name": N, "kind": "oneline"|"help", "indom": bool}
  {"op": "labels", "level": L, "name": N}  pmGet*Labels for level L (1 context, 2 domain, 4 indom,
                                           8 cluster, 16 item, 32 instances) of metric N
  {"op": "fetch", "names": [...]}          pmFetch: {"sec", "nsec", "sets": [{pmid, numval, values: [[inst, text]]}]}
  {"op": "profile", "add": bool, "name": N|null, "insts": [...]|null}  pmAddProfile / pmDelProfile
stdout: JSON list, one entry per op; a failed op gives {"error": code}.
Values: integers and strings as JSON strings (exact), floats as "f:" + repr of the double.
"""
import ctypes
import json
import sys

from pcp import pmapi
import cpmapi as c_api

LIBPCP = pmapi.LIBPCP


def units_word(u):
    return ((u.dimSpace & 0xf) << 28 | (u.dimTime & 0xf) << 24 | (u.dimCount & 0xf) << 20 |
            (u.scaleSpace & 0xf) << 16 | (u.scaleTime & 0xf) << 12 | (u.scaleCount & 0xf) << 8)


def value_text(valfmt, vlist, vtype):
    if vtype in (c_api.PM_TYPE_AGGREGATE, c_api.PM_TYPE_AGGREGATE_STATIC, c_api.PM_TYPE_EVENT,
                 c_api.PM_TYPE_HIGHRES_EVENT):
        pval = vlist.value.pval.contents
        return "hex:" + ctypes.string_at(ctypes.addressof(pval) + 4, pval.vlen - 4).hex()
    v = pmapi.pmContext.pmExtractValue(valfmt, vlist, vtype, vtype).dref(vtype)
    return "f:" + repr(v) if isinstance(v, float) else str(v)


def label_sets(level, ctx, name):
    pmid = ctx.pmLookupName([name])[0] if name else c_api.PM_ID_NULL
    desc = ctx.pmLookupDescs([pmid])[0] if name else None
    result = ctypes.POINTER(pmapi.pmLabelSet)()
    LIBPCP.pmUseContext(ctx.ctx)
    if level == c_api.PM_LABEL_CONTEXT:
        n = LIBPCP.pmGetContextLabels(ctypes.byref(result))
    elif level == c_api.PM_LABEL_DOMAIN:
        n = LIBPCP.pmGetDomainLabels(LIBPCP.pmID_domain(pmid), ctypes.byref(result))
    elif level == c_api.PM_LABEL_INDOM:
        n = LIBPCP.pmGetInDomLabels(desc.indom, ctypes.byref(result))
    elif level == c_api.PM_LABEL_CLUSTER:
        n = LIBPCP.pmGetClusterLabels(pmid, ctypes.byref(result))
    elif level == c_api.PM_LABEL_ITEM:
        n = LIBPCP.pmGetItemLabels(pmid, ctypes.byref(result))
    else:
        n = LIBPCP.pmGetInstancesLabels(desc.indom, ctypes.byref(result))
    if n < 0:
        return {"error": n}
    sets = []
    for i in range(n):
        s = result[i]
        raw = s.json or b""
        labels = []
        for j in range(max(0, s.nlabels)):
            lab = s.labels[j]
            labels.append({"name": raw[lab.name:lab.name + lab.namelen].decode(),
                           "value": raw[lab.value:lab.value + lab.valuelen].decode(),
                           "flags": lab.flags})
        inst = s.inst if s.inst != 0xffffffff else -1
        sets.append({"inst": inst, "json": raw[:s.jsonlen].decode(), "labels": labels})
    return sets


def run(ctx, op):
    kind = op["op"]
    if kind == "names":
        out = []
        for n in op["names"]:
            try:
                out.append(ctx.pmLookupName([n])[0])
            except pmapi.pmErr as e:
                out.append(e.args[0])
        return out
    if kind == "traverse":
        names = []
        ctx.pmTraversePMNS(op["name"], names.append)
        return names
    if kind == "children":
        names, status = ctx.pmGetChildrenStatus(op["name"])
        return [[n, s == c_api.PMNS_LEAF_STATUS] for n, s in zip(names or [], status or [])]
    if kind == "nameAll":
        return ctx.pmNameAll(ctx.pmLookupName([op["name"]])[0])
    if kind == "descs":
        out = []
        for ptr in ctx.pmLookupDescs(ctx.pmLookupName(op["names"])):
            d = ptr.contents
            out.append({"pmid": d.pmid, "type": d.type, "indom": d.indom, "sem": d.sem, "units": units_word(d.units)})
        return out
    if kind == "indom":
        d = ctx.pmLookupDescs(ctx.pmLookupName([op["name"]]))[0]
        insts, names = ctx.pmGetInDom(d)
        return sorted([[i, n] for i, n in zip(insts or [], names or [])])
    if kind == "text":
        pmid = ctx.pmLookupName([op["name"]])[0]
        level = c_api.PM_TEXT_ONELINE if op["kind"] == "oneline" else c_api.PM_TEXT_HELP
        if op.get("indom"):
            text = ctx.pmLookupInDomText(ctx.pmLookupDescs([pmid])[0], level)
        else:
            text = ctx.pmLookupText(pmid, level)
        return text.decode() if isinstance(text, bytes) else text
    if kind == "labels":
        return label_sets(op["level"], ctx, op.get("name"))
    if kind == "fetch":
        pmids = ctx.pmLookupName(op["names"])
        types = {d.contents.pmid: d.contents.type for d in ctx.pmLookupDescs(pmids)}
        r = ctx.pmFetch(pmids)
        res = r.contents
        sets = []
        for j in range(res.numpmid):
            numval = res.get_numval(j)
            values = []
            for i in range(max(0, numval)):
                vl = res.get_vlist(j, i)
                values.append([vl.inst, value_text(res.get_valfmt(j), vl, types[res.get_pmid(j)])])
            sets.append({"pmid": res.get_pmid(j), "numval": numval, "values": values})
        out = {"sec": res.timestamp.tv_sec, "usec": res.timestamp.tv_usec, "sets": sets}
        LIBPCP.pmFreeResult(r)
        return out
    if kind == "profile":
        indom = c_api.PM_INDOM_NULL
        if op.get("name"):
            indom = ctx.pmLookupDescs(ctx.pmLookupName([op["name"]]))[0].indom
        insts = op.get("insts")
        n = len(insts) if insts else 0
        lst = (ctypes.c_int * n)(*insts) if n else None
        LIBPCP.pmUseContext(ctx.ctx)
        fn = LIBPCP.pmAddProfile if op["add"] else LIBPCP.pmDelProfile
        return fn(indom, n, lst)
    raise ValueError("unknown op " + kind)


def main():
    req = json.load(sys.stdin)
    for name, expr in req.get("derived", []):
        err = ctypes.c_char_p()
        sts = LIBPCP.pmRegisterDerivedMetric(name.encode(), expr.encode(), ctypes.byref(err))
        if sts < 0:
            raise SystemExit("pmRegisterDerivedMetric %s: %s" % (name, err.value))
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, req["host"])
    out = []
    for op in req["ops"]:
        try:
            out.append(run(ctx, op))
        except pmapi.pmErr as e:
            out.append({"error": e.args[0]})
    json.dump(out, sys.stdout)


main()
