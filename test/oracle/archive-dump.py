#!/usr/bin/python3
"""libpcp's record-by-record read of an archive, as `pmdash dump --json` lines.

Usage: archive-dump.py ARCHIVE [ARCHIVE...]   or   archive-dump.py -   (names on stdin, one a line)
Each ARCHIVE is a pmNewContext archive name (base, file, comma list or directory). For each
one: PM_CONTEXT_ARCHIVE, then pmFetchHighResArchive until it fails; every result is one JSON
line, in the format src/cli/dump-json.ts documents:
  {"kind":"record","time":ISO,"sets":{"d.c.i":{"numval":N,"values":{"inst":VALUE,...}},...}}
  {"kind":"mark","time":ISO}
then one closing line per archive:
  {"kind":"end","archive":NAME}                          (PM_ERR_EOL)
  {"kind":"error","archive":NAME,"stage":"open"|"fetch","code":CODE}

Values come from the pmResult libpcp built. libpcp byte-swaps a value block's payload by the
block's own vtype (endian.c), not by the descriptor's type, so a U64 stored with vtype 0 is
left in disk order. To report what the archive holds, this script first undoes libpcp's swap
(giving the payload exactly as on disk), then decodes it by the descriptor's type with the
same rules as pmdash (see docs/deviations.md, "value blocks with an unreliable vtype").
Numbers are printed as JavaScript's Number#toString prints them, so the lines compare as text.
"""
import ctypes
import json
import struct
import sys
from decimal import Decimal

from pcp import pmapi
import cpmapi as c_api

LIBPCP = pmapi.LIBPCP
string_at = ctypes.string_at
MAX_SAFE = (1 << 53) - 1
SWAB8 = (2, 3, 5)          # PM_TYPE_64, U64, DOUBLE: libpcp swaps 8 payload bytes
SWAB4 = (4,)               # PM_TYPE_FLOAT
EVENT, HIGHRES_EVENT = 9, 10
# Types whose payload libpcp leaves in host (little-endian) order when vtype matches: format, size.
LE_FAST = {2: ('<q', 8), 3: ('<Q', 8), 4: ('<f', 4), 5: ('<d', 8)}


def js_number(x):
    """Number#toString of a double (ECMA-262 Number::toString), NaN/Infinity as strings."""
    if x != x:
        return '"NaN"'
    if x in (float('inf'), float('-inf')):
        return '"Infinity"' if x > 0 else '"-Infinity"'
    if x == 0:
        return '0'
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    ds = ''.join(map(str, digits)).rstrip('0')
    exp += len(''.join(map(str, digits))) - len(ds)
    k = len(ds)
    n = exp + k
    if k <= n <= 21:
        s = ds + '0' * (n - k)
    elif 0 < n <= 21:
        s = ds[:n] + '.' + ds[n:]
    elif -6 < n <= 0:
        s = '0.' + '0' * (-n) + ds
    else:
        e = n - 1
        s = ds[0] + ('.' + ds[1:] if k > 1 else '') + 'e' + ('+' if e >= 0 else '-') + str(abs(e))
    return ('-' if sign else '') + s


def js_int(v):
    return str(v) if -MAX_SAFE <= v <= MAX_SAFE else '"%d"' % v


def json_string(b):
    """A C string (up to the first NUL) as a JSON string, as JSON.stringify writes it."""
    nul = b.find(b'\0')
    if nul >= 0:
        b = b[:nul]
    # json.dumps escapes exactly what JSON.stringify does for text without lone surrogates
    # (which UTF-8 decoding with 'replace' never yields): " \\ \b \f \n \r \t, other
    # controls as lowercase \u00xx.
    return json.dumps(b.decode('utf-8', 'replace'), ensure_ascii=False)


def iso(sec, nsec):
    total = sec * 1000000000 + nsec
    s, ns = divmod(total, 1000000000)
    days, rem = divmod(s, 86400)
    # civil-from-days (proleptic Gregorian), valid for any day count
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    if m <= 2:
        y += 1
    ys = ('%04d' % y) if 0 <= y <= 9999 else ('%+07d' % y)
    return '%s-%02d-%02dT%02d:%02d:%02d.%09dZ' % (ys, m, d, rem // 3600, rem // 60 % 60, rem % 60, ns)


def event_value(p, highres):
    """Decodes a big-endian event array payload (after the 4-byte block header)."""
    tsz = 16 if highres else 8
    if len(p) < 4:
        return None
    nrec, = struct.unpack_from('>i', p, 0)
    if nrec < 0:
        return None
    pos = 4
    recs = []
    for _ in range(nrec):
        if pos + tsz + 8 > len(p):
            return None
        if highres:
            sec, nsec = struct.unpack_from('>qq', p, pos)
        else:
            sec, usec = struct.unpack_from('>ii', p, pos)
            nsec = usec * 1000
        flags, nparams = struct.unpack_from('>Ii', p, pos + tsz)
        pos += tsz + 8
        head = '{"time":"%s","flags":%d' % (iso(sec, nsec), flags)
        if flags & 0x80000000:
            recs.append(head + ',"missed":%d}' % nparams)
            continue
        if nparams < 0:
            return None
        params = []
        for _ in range(nparams):
            if pos + 8 > len(p):
                return None
            pmid, w = struct.unpack_from('>II', p, pos)
            ptype, plen = w >> 24, w & 0xffffff
            if plen < 4:
                return None
            padded = (plen + 3) & ~3
            if pos + 4 + padded > len(p):
                return None
            body = p[pos + 8:pos + 4 + plen]
            v = atom(ptype, body) if ptype not in (EVENT, HIGHRES_EVENT) else None
            if v is None:
                v = '{"raw":"%s"}' % body.hex()
            params.append('{"pmid":"%s","type":%d,"value":%s}' % (pmid_str(pmid), ptype, v))
            pos += 4 + padded
        recs.append(head + ',"params":[' + ','.join(params) + ']}')
    if pos != len(p):
        return None
    return '{"nrecords":%d,"records":[%s]}' % (nrec, ','.join(recs))


def atom(vtype, p):
    """A value of type vtype from its big-endian payload bytes; None if they do not fit."""
    n = len(p)
    if vtype == 0 and n >= 4:
        return str(struct.unpack_from('>i', p)[0])
    if vtype == 1 and n >= 4:
        return str(struct.unpack_from('>I', p)[0])
    if vtype == 2 and n >= 8:
        return js_int(struct.unpack_from('>q', p)[0])
    if vtype == 3 and n >= 8:
        return js_int(struct.unpack_from('>Q', p)[0])
    if vtype == 4 and n >= 4:
        return js_number(struct.unpack_from('>f', p)[0])
    if vtype == 5 and n >= 8:
        return js_number(struct.unpack_from('>d', p)[0])
    if vtype == 6:
        return json_string(p)
    if vtype in (7, 8):
        return '"%s"' % p.hex()
    if vtype in (EVENT, HIGHRES_EVENT):
        return event_value(p, vtype == HIGHRES_EVENT)
    return None


def disk_payload(addr, memtype, vlen):
    """The value block payload as stored on disk, undoing libpcp's swap by vtype."""
    raw = string_at(addr + 4, vlen - 4) if vlen > 4 else b''
    if memtype in SWAB8 and len(raw) >= 8:
        return raw[7::-1] + raw[8:]
    if memtype in SWAB4 and len(raw) >= 4:
        return raw[3::-1] + raw[4:]
    if memtype in (EVENT, HIGHRES_EVENT):
        return reswab_events(raw, memtype == HIGHRES_EVENT)
    return raw


def reswab_events(m, highres):
    """Host-order event array (as ntohEventArray left it) back to big-endian."""
    out = bytearray(m)
    if len(m) < 4:
        return bytes(out)
    nrec, = struct.unpack_from('<i', m, 0)
    struct.pack_into('>i', out, 0, nrec)
    pos = 4
    tsz = 16 if highres else 8
    for _ in range(max(nrec, 0)):
        if pos + tsz + 8 > len(m):
            break
        if highres:
            struct.pack_into('>qq', out, pos, *struct.unpack_from('<qq', m, pos))
        else:
            struct.pack_into('>ii', out, pos, *struct.unpack_from('<ii', m, pos))
        flags, nparams = struct.unpack_from('<Ii', m, pos + tsz)
        struct.pack_into('>Ii', out, pos + tsz, flags, nparams)
        pos += tsz + 8
        if flags & 0x80000000:
            continue
        for _ in range(max(nparams, 0)):
            if pos + 8 > len(m):
                break
            pmid, w = struct.unpack_from('<II', m, pos)
            struct.pack_into('>II', out, pos, pmid, w)
            ptype, plen = w >> 24, w & 0xffffff
            v = pos + 8
            if ptype in (0, 1) and v + 4 <= len(m):
                out[v:v + 4] = m[v:v + 4][::-1]
            elif ptype in SWAB8 and v + 8 <= len(m):
                out[v:v + 8] = m[v:v + 8][::-1]
            elif ptype in SWAB4 and v + 4 <= len(m):
                out[v:v + 4] = m[v:v + 4][::-1]
            pos += 4 + ((plen + 3) & ~3)
    return bytes(out)


def pmid_str(p):
    return '%d.%d.%d' % ((p >> 22) & 0x1ff, (p >> 10) & 0xfff, p & 0x3ff)


def dump(name, out):
    try:
        ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, name)
    except pmapi.pmErr as e:
        out.write('{"kind":"error","archive":%s,"stage":"open","code":%d}\n' % (json_string(name.encode()), e.args[0]))
        return
    types = {}
    structs = {}
    while True:
        try:
            r = ctx.pmFetchHighResArchive()
        except pmapi.pmErr as e:
            code = e.args[0]
            if code == c_api.PM_ERR_EOL:
                out.write('{"kind":"end","archive":%s}\n' % json_string(name.encode()))
            else:
                out.write('{"kind":"error","archive":%s,"stage":"fetch","code":%d}\n' % (json_string(name.encode()), code))
            return
        addr = ctypes.addressof(r.contents)
        sec, nsec, numpmid = struct.unpack('<qqi', string_at(addr, 20))
        if numpmid == 0:
            out.write('{"kind":"mark","time":"%s"}\n' % iso(sec, nsec))
            LIBPCP.pmFreeHighResResult(r)
            continue
        sets = []
        for vp in struct.unpack('<%dQ' % numpmid, string_at(addr + 24, 8 * numpmid)):
            pmid, numval, valfmt = struct.unpack('<Iii', string_at(vp, 12))
            key = pmid_str(pmid)
            if numval < 0:
                sets.append('"%s":{"numval":%d}' % (key, numval))
                continue
            t = types.get(pmid)
            if t is None:
                try:
                    t = ctx.pmLookupDesc(pmid).contents.type
                except pmapi.pmErr:
                    t = -99
                types[pmid] = t
            vals = []
            if numval > 0:
                st = structs.get(numval)
                if st is None:
                    st = structs[numval] = struct.Struct('<' + 'i4xQ' * numval)
                raw = st.unpack(string_at(vp + 16, 16 * numval))
                if valfmt == 0:
                    for j in range(0, 2 * numval, 2):
                        inst, u = raw[j], raw[j + 1]
                        w = u & 0xffffffff
                        if t == 0:
                            v = str(w - (1 << 32) if w & 0x80000000 else w)
                        elif t == 1:
                            v = str(w)
                        elif t == 4:
                            v = js_number(struct.unpack('<f', struct.pack('<I', w))[0])
                        else:
                            v = '{"insitu":%d}' % (w - (1 << 32) if w & 0x80000000 else w)
                        vals.append('"%d":%s' % (inst, v))
                else:
                    # libpcp copies a result's value blocks into one contiguous buffer: read
                    # the span of this value set's blocks once.
                    ptrs = raw[1::2]
                    lo = min(ptrs)
                    top = max(ptrs)
                    tophdr, = struct.unpack('<I', string_at(top, 4))
                    region = string_at(lo, top - lo + max(4, tophdr & 0xffffff))
                    for j in range(0, 2 * numval, 2):
                        inst, u = raw[j], raw[j + 1]
                        off = u - lo
                        hdr, = struct.unpack_from('<I', region, off)
                        vtype, vlen = hdr >> 24, hdr & 0xffffff
                        if vtype == t and t in LE_FAST and vlen - 4 >= LE_FAST[t][1]:
                            # Swapped to host order by libpcp for its own vtype: read directly.
                            x, = struct.unpack_from(LE_FAST[t][0], region, off + 4)
                            v = js_int(x) if t in (2, 3) else js_number(x)
                        elif vtype == t == 6:
                            v = json_string(region[off + 4:off + vlen])
                        else:
                            p = disk_payload(u, vtype, vlen)
                            v = atom(t, p)
                            if v is None:
                                v = '{"vtype":%d,"raw":"%s"}' % (vtype, p.hex())
                        vals.append('"%d":%s' % (inst, v))
            sets.append('"%s":{"numval":%d,"values":{%s}}' % (key, numval, ','.join(vals)))
        out.write('{"kind":"record","time":"%s","sets":{%s}}\n' % (iso(sec, nsec), ','.join(sets)))
        LIBPCP.pmFreeHighResResult(r)


def main():
    out = sys.stdout
    names = sys.argv[1:]
    if names == ['-']:
        # Serve names as they arrive, so a test can stream-compare archive after archive.
        for line in sys.stdin:
            dump(line.rstrip('\n'), out)
            out.flush()
        return
    for name in names:
        dump(name, out)
    out.flush()


if __name__ == '__main__':
    main()
