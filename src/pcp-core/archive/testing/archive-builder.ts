// A small writer of synthetic PCP archives (V2 and V3) for unit tests and fuzzing: labels,
// metadata records, data records with any value encoding, <mark>s and a temporal index, laid
// out as archive-format.md §2–§6 describes. It encodes exactly what it is told, so tests can
// also build damaged archives. Not used outside tests.
import type { Timestamp } from '../../types';
import { PM_ID_NULL } from '../../types';
import { ByteWriter } from '../../io/byte-writer';
import { logFormat, type LogVersion } from '../log-format';
import { TYPE_DESC, TYPE_INDOM, TYPE_INDOM_DELTA, TYPE_INDOM_V2, TYPE_LABEL, TYPE_LABEL_V2, TYPE_TEXT } from '../meta-records';

const utf8 = new TextEncoder();

export function timeval(w: ByteWriter, t: Timestamp): void {
  w.i32(t.sec).i32(Math.floor(t.nsec / 1000));
}

/** V3 timestamp: seconds low word first (§2.3). */
export function timestampV3(w: ByteWriter, t: Timestamp): void {
  w.u32(t.sec % 0x100000000).i32(Math.floor(t.sec / 0x100000000)).i32(t.nsec);
}

function stamp(w: ByteWriter, t: Timestamp, version: LogVersion): void {
  if (version === 3) timestampV3(w, t);
  else timeval(w, t);
}

/** Frames a payload as a record: length, payload, length (§2.1). */
export function frame(payload: Uint8Array): Uint8Array {
  const len = payload.length + 8;
  return new ByteWriter().u32(len).bytes(payload).u32(len).finish();
}

export interface LabelSpec {
  readonly version: LogVersion;
  readonly pid?: number;
  readonly start: Timestamp;
  readonly vol: number;
  readonly features?: number;
  readonly hostname?: string;
  readonly timezone?: string;
  readonly zoneinfo?: string;
  /** Replaces the magic word (default 0x50052600 | version). */
  readonly magic?: number;
}

function fixedString(w: ByteWriter, s: string, size: number): void {
  const b = utf8.encode(s).subarray(0, size - 1);
  w.bytes(b);
  w.bytes(new Uint8Array(size - b.length));
}

export function encodeLabel(l: LabelSpec): Uint8Array {
  const w = new ByteWriter();
  w.u32(l.magic ?? (0x50052600 | l.version)).i32(l.pid ?? 4242);
  if (l.version === 3) {
    timestampV3(w, l.start);
    w.i32(l.vol).u32(l.features ?? 0).u32(0);
    fixedString(w, l.hostname ?? 'testhost', 256);
    fixedString(w, l.timezone ?? 'UTC', 256);
    fixedString(w, l.zoneinfo ?? '', 256);
  } else {
    timeval(w, l.start);
    w.i32(l.vol);
    fixedString(w, l.hostname ?? 'testhost', 64);
    fixedString(w, l.timezone ?? 'UTC', 40);
  }
  return frame(w.finish());
}

// ----- metadata -----

export interface DescSpec {
  readonly kind: 'desc';
  readonly pmid: number;
  readonly type: number;
  readonly indom?: number;
  readonly sem?: number;
  readonly units?: number;
  readonly names: readonly string[];
}
export interface IndomSpec {
  readonly kind: 'indom';
  /** 'v2' (TYPE_INDOM_V2), 'full' (TYPE_INDOM) or 'delta' (TYPE_INDOM_DELTA). */
  readonly form?: 'v2' | 'full' | 'delta';
  readonly time: Timestamp;
  readonly indom: number;
  /** Instance id and name; a null name is a deletion (delta only). */
  readonly instances: ReadonlyArray<readonly [number, string | null]>;
}
export interface LabelSetSpec {
  readonly inst?: number;
  readonly labels: ReadonlyArray<{ readonly name: string; readonly value: string; readonly flags?: number }>;
}
export interface LabelsSpec {
  readonly kind: 'labels';
  readonly time: Timestamp;
  readonly type: number;
  readonly ident: number;
  readonly sets: readonly LabelSetSpec[];
}
export interface TextSpec {
  readonly kind: 'text';
  readonly type: number;
  readonly ident: number;
  readonly text: string;
}
export type MetaSpec = DescSpec | IndomSpec | LabelsSpec | TextSpec;

export function encodeMetaRecord(m: MetaSpec, version: LogVersion): Uint8Array {
  const w = new ByteWriter();
  switch (m.kind) {
    case 'desc': {
      w.u32(TYPE_DESC).u32(m.pmid).i32(m.type).u32(m.indom ?? PM_ID_NULL).i32(m.sem ?? 3).u32(m.units ?? 0);
      w.i32(m.names.length);
      for (const n of m.names) {
        const b = utf8.encode(n);
        w.i32(b.length).bytes(b);
      }
      break;
    }
    case 'indom': {
      const form = m.form ?? (version === 3 ? 'full' : 'v2');
      w.u32(form === 'v2' ? TYPE_INDOM_V2 : form === 'delta' ? TYPE_INDOM_DELTA : TYPE_INDOM);
      if (form === 'v2') timeval(w, m.time);
      else timestampV3(w, m.time);
      w.u32(m.indom).i32(m.instances.length);
      for (const [id] of m.instances) w.i32(id);
      const table = new ByteWriter();
      const offsets: number[] = [];
      for (const [, name] of m.instances) {
        if (name === null) {
          offsets.push(-1);
          continue;
        }
        offsets.push(table.length);
        table.bytes(utf8.encode(name)).u8(0);
      }
      for (const o of offsets) w.i32(o);
      w.bytes(table.finish());
      break;
    }
    case 'labels': {
      w.u32(version === 3 ? TYPE_LABEL : TYPE_LABEL_V2);
      stamp(w, m.time, version);
      w.u32(m.type).u32(m.ident).i32(m.sets.length);
      for (const set of m.sets) {
        const parts: string[] = [];
        const entries: Array<[number, number, number, number, number]> = [];
        let json = '{';
        for (const l of set.labels) {
          if (parts.length > 0) json += ',';
          const nameAt = json.length + 1;
          json += `"${l.name}":`;
          const valueAt = json.length;
          json += l.value;
          entries.push([nameAt, l.name.length, l.flags ?? m.type, valueAt, l.value.length]);
          parts.push(l.name);
        }
        json += '}';
        const jb = utf8.encode(json);
        w.u32(set.inst ?? 0xffffffff).i32(jb.length).bytes(jb).i32(entries.length);
        for (const [no, nl, fl, vo, vl] of entries) w.u16(no).u8(nl).u8(fl).u16(vo).u16(vl);
      }
      break;
    }
    case 'text':
      w.u32(TYPE_TEXT).u32(m.type).u32(m.ident).bytes(utf8.encode(m.text)).u8(0);
      break;
  }
  return frame(w.finish());
}

// ----- data records -----

/** A value: in-situ word, or a value block of `vtype` with a payload. */
export type ValueSpec = { readonly inst: number; readonly insitu: number } | { readonly inst: number; readonly vtype: number; readonly payload: Uint8Array };
export interface ValueSetSpec {
  readonly pmid: number;
  /** An error code (numval < 0), or the values. */
  readonly error?: number;
  readonly valfmt?: number;
  readonly values?: readonly ValueSpec[];
}
export type RecordSpec = { readonly time: Timestamp; readonly sets: readonly ValueSetSpec[] } | { readonly time: Timestamp; readonly mark: true };

export function encodeRecord(r: RecordSpec, version: LogVersion): Uint8Array {
  const fmt = logFormat(version);
  const w = new ByteWriter();
  stamp(w, r.time, version);
  if ('mark' in r) {
    w.i32(0);
    return frame(w.finish());
  }
  w.i32(r.sets.length);
  // Value sets first, then all value blocks (§5.3); block word index k: record offset 4k − 8.
  let vsetBytes = 0;
  for (const s of r.sets) vsetBytes += s.error !== undefined || !s.values || s.values.length === 0 ? 8 : 12 + 8 * s.values.length;
  let blockAt = fmt.dataHeaderSize + vsetBytes;
  const blocks = new ByteWriter();
  for (const s of r.sets) {
    w.u32(s.pmid);
    if (s.error !== undefined || !s.values || s.values.length === 0) {
      w.i32(s.error ?? 0);
      continue;
    }
    const anyBlock = s.values.some((v) => 'payload' in v);
    w.i32(s.values.length).i32(s.valfmt ?? (anyBlock ? 1 : 0));
    for (const v of s.values) {
      w.i32(v.inst);
      if ('payload' in v) {
        w.u32((blockAt + 8) / 4);
        const vlen = 4 + v.payload.length;
        blocks.u32(((v.vtype & 0xff) << 24) | vlen).bytes(v.payload);
        const pad = ((vlen + 3) & ~3) - vlen;
        for (let i = 0; i < pad; i++) blocks.u8(0x7e);
        blockAt += vlen + pad;
      } else {
        w.u32(v.insitu);
      }
    }
  }
  w.bytes(blocks.finish());
  return frame(w.finish());
}

/** Payload helpers for value blocks. */
function sized(n: number, set: (v: DataView) => void): Uint8Array {
  const b = new Uint8Array(n);
  set(new DataView(b.buffer));
  return b;
}

export const payload = {
  u64: (v: bigint): Uint8Array => sized(8, (d) => d.setBigUint64(0, v)),
  i64: (v: bigint): Uint8Array => sized(8, (d) => d.setBigInt64(0, v)),
  f32: (v: number): Uint8Array => sized(4, (d) => d.setFloat32(0, v)),
  f64: (v: number): Uint8Array => sized(8, (d) => d.setFloat64(0, v)),
  string: (s: string): Uint8Array => new ByteWriter().bytes(utf8.encode(s)).u8(0).finish(),
  bytes: (b: ArrayLike<number>): Uint8Array => Uint8Array.from(b),
};

// ----- whole archives -----

export interface IndexEntrySpec {
  readonly time: Timestamp;
  readonly vol: number;
  readonly offMeta: number;
  readonly offData: number;
}

export interface ArchiveSpec {
  readonly version: LogVersion;
  readonly start: Timestamp;
  readonly hostname?: string;
  readonly timezone?: string;
  readonly zoneinfo?: string;
  readonly pid?: number;
  readonly meta: readonly MetaSpec[];
  /** Records per volume number. */
  readonly volumes: ReadonlyMap<number, readonly RecordSpec[]> | readonly RecordSpec[];
  /** 'auto' (an entry for the first record of each volume and at the end), explicit entries, or none. */
  readonly index?: 'auto' | 'none' | readonly IndexEntrySpec[];
}

/** The files of an archive by suffix: "meta", "index", "0", "1", ... */
export function buildArchive(spec: ArchiveSpec): Map<string, Uint8Array> {
  const { version } = spec;
  const label = (vol: number): Uint8Array =>
    encodeLabel({ version, start: spec.start, vol, pid: spec.pid, hostname: spec.hostname, timezone: spec.timezone, zoneinfo: spec.zoneinfo });
  const files = new Map<string, Uint8Array>();
  const meta = new ByteWriter().bytes(label(-1));
  for (const m of spec.meta) meta.bytes(encodeMetaRecord(m, version));
  files.set('meta', meta.finish());
  const volumes = Array.isArray(spec.volumes) ? new Map([[0, spec.volumes as readonly RecordSpec[]]]) : (spec.volumes as ReadonlyMap<number, readonly RecordSpec[]>);
  const entries: IndexEntrySpec[] = [];
  for (const [vol, records] of volumes) {
    const w = new ByteWriter().bytes(label(vol));
    records.forEach((r, i) => {
      if (i === 0) entries.push({ time: r.time, vol, offMeta: meta.length, offData: w.length });
      w.bytes(encodeRecord(r, version));
      if (i === records.length - 1 && records.length > 1) entries.push({ time: r.time, vol, offMeta: meta.length, offData: w.length });
    });
    files.set(String(vol), w.finish());
  }
  const index = spec.index ?? 'auto';
  if (index !== 'none') {
    const list = index === 'auto' ? entries : index;
    const w = new ByteWriter().bytes(label(-2));
    for (const e of list) {
      stamp(w, e.time, version);
      w.i32(e.vol);
      if (version === 3) w.u64(BigInt(e.offMeta)).u64(BigInt(e.offData));
      else w.u32(e.offMeta).u32(e.offData);
    }
    files.set('index', w.finish());
  }
  return files;
}

/** The files as [path, bytes] pairs for memoryFileSet, named `${base}.${suffix}`. */
export function archiveFiles(base: string, files: Map<string, Uint8Array>): Array<[string, Uint8Array]> {
  return [...files].map(([suffix, bytes]) => [`${base}.${suffix}`, bytes]);
}
