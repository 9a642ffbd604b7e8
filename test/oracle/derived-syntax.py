#!/usr/bin/python3
"""Oracle for derived-metric syntax checking: registers each expression with libpcp's
pmRegisterDerivedMetric and prints its status and message as JSON.

stdin: JSON list of [name, expression]. stdout: JSON list of {"status": int, "message": str|null}.
libpcp 6.0.3 keeps its matchinst scanner flag across calls after a failed parse; a
well-formed matchinst() is registered after every failure so each case starts afresh, as
pmdash's parser always does (docs/deviations.md)."""
import json
import sys
from ctypes import POINTER, byref, c_char_p, c_int

from pcp import pmapi

LIB = pmapi.LIBPCP
LIB.pmRegisterDerivedMetric.restype = c_int
LIB.pmRegisterDerivedMetric.argtypes = [c_char_p, c_char_p, POINTER(c_char_p)]


def register(name, expr):
    msg = c_char_p()
    status = LIB.pmRegisterDerivedMetric(name.encode(), expr.encode(), byref(msg))
    text = msg.value.decode() if msg.value is not None else None
    return status, text


def main():
    cases = json.load(sys.stdin)
    out = []
    for i, (name, expr) in enumerate(cases):
        status, text = register(name, expr)
        out.append({"status": status, "message": text})
        if status != 0:
            register("oracle.reset.m%d" % i, "matchinst(/x/, oracle.reset)")
    json.dump(out, sys.stdout)


main()
