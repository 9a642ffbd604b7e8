// `pmdash dump --json`: one JSON object per archive record, exactly as
// test/oracle/archive-dump.py prints libpcp's pmFetchArchive results, so the two compare as
// text. The format:
//   {"kind":"record","time":"2018-01-01T02:10:11.563796000Z","sets":{"60.0.20":{"numval":2,"values":{"0":123,"1":"18446744073709551615"}}}}
//   {"kind":"mark","time":"2018-01-01T02:10:12.563796000Z"}
// - time: UTC, ISO-8601, nine fractional digits (V2 microseconds × 1000);
// - sets: keyed by pmid "domain.cluster.item", in record order; numval < 0 is the error code
//   and has no "values"; values keyed by instance id as a string ("-1" for singular);
// - values by the descriptor's type: 32/U32 integers; 64/U64 integers, as strings beyond
//   ±(2^53−1) so they stay exact; FLOAT/DOUBLE as JavaScript prints numbers ("NaN",
//   "Infinity", "-Infinity" as strings); STRING as a JSON string (up to the first NUL, UTF-8
//   with U+FFFD for bad bytes); AGGREGATE as a string of lowercase hex digits; EVENT and
//   HIGHRES_EVENT as {"nrecords":N,"records":[{"time":ISO,"flags":F,"params":[{"pmid":P,
//   "type":T,"value":V}...]}...]}, a record with the MISSED flag as {"time","flags","missed":N};
// - a value whose encoding does not fit its type (or a pmid without descriptor): an in-situ
//   word as {"insitu":N}, a value block as {"vtype":N,"raw":"<hex>"}; an event parameter that
//   cannot be decoded as {"raw":"<hex>"}.
import {
  PM_TYPE_32,
  PM_TYPE_AGGREGATE,
  PM_TYPE_AGGREGATE_STATIC,
  PM_TYPE_64,
  PM_TYPE_DOUBLE,
  PM_TYPE_FLOAT,
  PM_TYPE_STRING,
  PM_TYPE_U32,
  PM_TYPE_U64,
  PM_EVENT_FLAG_MISSED,
  PM_VAL_INSITU,
  formatPmId,
  type AtomValue,
  type EventArray,
  type PmId,
  type Timestamp,
} from '../pcp-core/types';
import { formatIsoUtc } from '../pcp-core/time/format';
import type { ArchiveValueSet } from '../pcp-core/archive/data-record';
import { blockOffset, type LogRecord } from '../pcp-core/replay/log-record';
import { decodeAtom } from '../pcp-core/archive/value-decode';
import { decodeCStringAt } from '../pcp-core/io/cursor';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

/** Number#toString, with the non-finite values as JSON strings. */
function jsNumber(x: number): string {
  return Number.isFinite(x) ? String(x) : `"${String(x)}"`;
}

function int64(v: bigint): string {
  return v >= -9007199254740991n && v <= 9007199254740991n ? v.toString() : `"${v.toString()}"`;
}

/** A decoded value of `type` (as value-decode.ts returns it); undefined: does not fit. */
function atomJson(type: number, v: AtomValue): string | undefined {
  switch (typeof v) {
    case 'number':
      return type === PM_TYPE_FLOAT || type === PM_TYPE_DOUBLE ? jsNumber(v) : String(v);
    case 'bigint':
      return int64(v);
    case 'string':
      return JSON.stringify(v);
    default:
      if (v instanceof Uint8Array) return type === PM_TYPE_AGGREGATE || type === PM_TYPE_AGGREGATE_STATIC ? `"${hex(v)}"` : undefined;
      return eventsJson(v);
  }
}

function eventsJson(ea: EventArray): string {
  const recs: string[] = [];
  for (const r of ea.records) {
    const head = `{"time":"${formatIsoUtc(r.time)}","flags":${r.flags}`;
    if ((r.flags & PM_EVENT_FLAG_MISSED) !== 0) {
      recs.push(`${head},"missed":${r.nparams}}`);
      continue;
    }
    const params = r.params.map((p) => {
      const v = atomJson(p.type, p.value) ?? `{"raw":"${hex(p.value as Uint8Array)}"}`;
      return `{"pmid":"${formatPmId(p.pmid)}","type":${p.type},"value":${v}}`;
    });
    recs.push(`${head},"params":[${params.join(',')}]}`);
  }
  return `{"nrecords":${ea.records.length},"records":[${recs.join(',')}]}`;
}

/** Formats records as JSON lines; `typeOf` gives a pmid's descriptor type. */
export class DumpJsonFormatter {
  private readonly keys = new Map<number, string>();

  constructor(private readonly typeOf: (pmid: PmId) => number | undefined) {}

  private key(pmid: PmId): string {
    let k = this.keys.get(pmid);
    if (k === undefined) this.keys.set(pmid, (k = `"${formatPmId(pmid)}":`));
    return k;
  }

  /** One line, newline included. */
  format(rec: { readonly timestamp: Timestamp; readonly sets: readonly ArchiveValueSet[] }): string {
    const time = formatIsoUtc(rec.timestamp);
    if (rec.sets.length === 0) return `{"kind":"mark","time":"${time}"}\n`;
    let out = `{"kind":"record","time":"${time}","sets":{`;
    for (let i = 0; i < rec.sets.length; i++) {
      const vs = rec.sets[i];
      if (i > 0) out += ',';
      out += this.key(vs.pmid);
      if (vs.numval < 0) {
        out += `{"numval":${vs.numval}}`;
        continue;
      }
      out += `{"numval":${vs.numval},"values":{`;
      const type = this.typeOf(vs.pmid) ?? -99;
      const insitu = vs.valfmt === PM_VAL_INSITU;
      for (let j = 0; j < vs.numval; j++) {
        if (j > 0) out += ',';
        out += `"${vs.inst[j]}":`;
        const v = vs.values[j];
        if (insitu) {
          out += type === PM_TYPE_32 || type === PM_TYPE_U32 || type === PM_TYPE_FLOAT ? atomJson(type, v) : `{"insitu":${v as number}}`;
        } else {
          out += atomJson(type, v) ?? `{"vtype":${vs.vtypes?.[j] ?? 0},"raw":"${hex(v as Uint8Array)}"}`;
        }
      }
      out += '}}';
    }
    return out + '}}\n';
  }

  /**
   * The same line as `format`, straight from a checked record's bytes (no decoded values):
   * the dump's fast path. 64-bit integers below 2^53 never become bigints here.
   */
  formatRaw(rec: LogRecord, picked?: readonly number[]): string {
    const time = formatIsoUtc(rec.timestamp);
    if (rec.numpmid === 0) return `{"kind":"mark","time":"${time}"}\n`;
    const { buf: bytes, view } = rec;
    let p = rec.vsetOffsets[0];
    let out = `{"kind":"record","time":"${time}","sets":{`;
    // `picked`: the offsets of the chosen sets (dump-select.ts), else every set in turn.
    const n = picked ? picked.length : rec.numpmid;
    for (let i = 0; i < n; i++) {
      if (picked) p = picked[i];
      const pmid = view.getUint32(p) as PmId;
      const numval = view.getInt32(p + 4);
      if (i > 0) out += ',';
      out += this.key(pmid);
      if (numval <= 0) {
        out += numval < 0 ? `{"numval":${numval}}` : '{"numval":0,"values":{}}';
        p += 8;
        continue;
      }
      const valfmt = view.getInt32(p + 8);
      const type = this.typeOf(pmid) ?? -99;
      out += `{"numval":${numval},"values":{`;
      let q = p + 12;
      for (let j = 0; j < numval; j++, q += 8) {
        if (j > 0) out += ',';
        out += `"${view.getInt32(q)}":`;
        if (valfmt === PM_VAL_INSITU) {
          out +=
            type === PM_TYPE_32 ? String(view.getInt32(q + 4))
            : type === PM_TYPE_U32 ? String(view.getUint32(q + 4))
            : type === PM_TYPE_FLOAT ? jsNumber(view.getFloat32(q + 4))
            : `{"insitu":${view.getInt32(q + 4)}}`;
          continue;
        }
        const b = blockOffset(view.getInt32(q + 4));
        const word = view.getUint32(b);
        const len = (word & 0xffffff) - 4;
        const at = b + 4;
        let v: string | undefined;
        if (type === PM_TYPE_U64 && len >= 8) {
          const hi = view.getUint32(at);
          v = hi < 0x200000 ? String(hi * 4294967296 + view.getUint32(at + 4)) : `"${view.getBigUint64(at).toString()}"`;
        } else if (type === PM_TYPE_64 && len >= 8) {
          const hi = view.getInt32(at);
          const lo = view.getUint32(at + 4);
          v = hi >= -0x200000 && hi < 0x200000 && !(hi === -0x200000 && lo === 0) ? String(hi * 4294967296 + lo) : `"${view.getBigInt64(at).toString()}"`;
        } else if (type === PM_TYPE_DOUBLE && len >= 8) {
          v = jsNumber(view.getFloat64(at));
        } else if (type === PM_TYPE_STRING) {
          v = JSON.stringify(decodeCStringAt(bytes, at, at + len));
        } else {
          const atom = decodeAtom(type, view, bytes, at, len);
          v = atom === undefined ? undefined : atomJson(type, atom);
        }
        out += v ?? `{"vtype":${word >>> 24},"raw":"${hex(bytes.subarray(at, at + len))}"}`;
      }
      out += '}}';
      p = q;
    }
    return out + '}}\n';
  }
}
