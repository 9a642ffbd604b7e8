#!/usr/bin/python3
"""Oracle for POSIX extended regular expressions as libpcp's matchinst() compiles them:
glibc regcomp(REG_EXTENDED|REG_NOSUB) and regexec, in the C locale.

stdin: {"patterns": [str], "subjects": [str]}
stdout: [{"error": str|null, "matches": [bool per subject]}]"""
import ctypes
import json
import sys

LIBC = ctypes.CDLL("libc.so.6")
# python3 sets LC_CTYPE from the environment at start-up (C.UTF-8 here); PCP's tools never
# call setlocale, so libpcp's regcomp/regexec run in the C locale: bytes, ASCII classes.
LIBC.setlocale.restype = ctypes.c_char_p
LC_ALL = 6
LIBC.setlocale(LC_ALL, b"C")
REG_EXTENDED = 1
REG_NOSUB = 8


def main():
    req = json.load(sys.stdin)
    subjects = [s.encode() for s in req["subjects"]]
    out = []
    for p in req["patterns"]:
        buf = ctypes.create_string_buffer(256)
        status = LIBC.regcomp(buf, p.encode(), REG_EXTENDED | REG_NOSUB)
        if status != 0:
            msg = ctypes.create_string_buffer(128)
            LIBC.regerror(status, buf, msg, 128)
            out.append({"error": msg.value.decode(), "matches": []})
            continue
        matches = [LIBC.regexec(buf, s, 0, None, 0) == 0 for s in subjects]
        LIBC.regfree(buf)
        out.append({"error": None, "matches": matches})
    json.dump(out, sys.stdout)


main()
