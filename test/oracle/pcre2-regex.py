#!/usr/bin/python3
"""Oracle for view-file instance patterns as pmchart compiles them: QRegularExpression is
PCRE2 with PCRE2_UTF and no other option (unanchored, case-sensitive); libpcre2-8 with the
same option answers for UTF-8 text.

stdin: {"patterns": [str], "subjects": [str]}
stdout: [{"error": bool, "matches": [bool per subject]}]"""
import ctypes
import json
import sys

PCRE2 = ctypes.CDLL("libpcre2-8.so.0")
PCRE2_UTF = 0x00080000
PCRE2.pcre2_compile_8.restype = ctypes.c_void_p
PCRE2.pcre2_compile_8.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]
PCRE2.pcre2_match_data_create_from_pattern_8.restype = ctypes.c_void_p
PCRE2.pcre2_match_data_create_from_pattern_8.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
PCRE2.pcre2_match_8.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p]
PCRE2.pcre2_code_free_8.argtypes = [ctypes.c_void_p]
PCRE2.pcre2_match_data_free_8.argtypes = [ctypes.c_void_p]


def main():
    req = json.load(sys.stdin)
    subjects = [s.encode() for s in req["subjects"]]
    out = []
    for p in req["patterns"]:
        pb = p.encode()
        err = ctypes.c_int()
        off = ctypes.c_size_t()
        code = PCRE2.pcre2_compile_8(pb, len(pb), PCRE2_UTF, ctypes.byref(err), ctypes.byref(off), None)
        if not code:
            out.append({"error": True, "matches": []})
            continue
        md = PCRE2.pcre2_match_data_create_from_pattern_8(code, None)
        matches = [PCRE2.pcre2_match_8(code, s, len(s), 0, 0, md, None) >= 0 for s in subjects]
        PCRE2.pcre2_match_data_free_8(md)
        PCRE2.pcre2_code_free_8(code)
        out.append({"error": False, "matches": matches})
    json.dump(out, sys.stdout)


main()
