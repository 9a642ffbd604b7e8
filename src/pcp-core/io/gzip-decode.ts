// `gzip -dc` for archive files stored as `.gz`, `.Z` or `.z` (archive-format.md §1.2): fflate
// inflates; this module frames members the way gzip does, because fflate neither checks the
// CRC32/ISIZE trailers nor stops at trailing data. Like gzip: members may be concatenated,
// trailing zero bytes are ignored, anything else after the last member is an error (gzip
// exits 2 and libpcp then refuses the file with PM_ERR_LOGREC).
//
// gzip -dc also decodes LZW (`compress`), pack and LZH data and single-member zip files.
// No maintained JavaScript decoder for those formats exists (docs/deviations.md), so they are
// reported as PM_ERR_NYI, named, rather than decoded by home-made code.
import { Gunzip } from 'fflate';
import { crc32 } from './crc32';
import { ByteWriter } from './byte-writer';
import { PM_ERR_LOGREC, PM_ERR_NYI, PmError } from '../errors';

const OTHER_FORMATS: ReadonlyArray<readonly [magic: readonly number[], what: string]> = [
  [[0x1f, 0x9d], 'LZW (compress) data'],
  [[0x1f, 0x1e], 'pack data'],
  [[0x1f, 0xa0], 'LZH data'],
  [[0x50, 0x4b, 0x03, 0x04], 'zip data'],
];

function u32le(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** Decompresses `data` as `gzip -dc` would; `name` is for messages. */
export function decodeGzip(name: string, data: Uint8Array): Uint8Array {
  const corrupt = (detail: string): PmError => new PmError(PM_ERR_LOGREC, undefined, `${name} (gzip: ${detail})`);
  if (data[0] !== 0x1f || data[1] !== 0x8b) {
    for (const [magic, what] of OTHER_FORMATS) {
      if (magic.every((b, i) => data[i] === b)) throw new PmError(PM_ERR_NYI, undefined, `${name} (${what}: not supported, only gzip)`);
    }
    throw corrupt('not in gzip format');
  }
  // ISIZE of the last member: exact for the usual single-member file (deflate expands at most
  // 1032:1, which bounds a corrupt value).
  const out = new ByteWriter(data.length >= 4 ? Math.min(u32le(data, data.length - 4), data.length * 1032) : 0);
  /** Compressed start and output start of each member. */
  const members: Array<{ at: number; outAt: number }> = [{ at: 0, outAt: 0 }];
  const gunzip = new Gunzip((chunk) => out.bytes(chunk));
  gunzip.onmember = (at) => members.push({ at, outAt: out.length });
  let failure: unknown;
  try {
    gunzip.push(data, true);
  } catch (e) {
    failure = e;
  }
  const verify = (i: number, trailerAt: number): boolean => {
    const outEnd = i + 1 < members.length ? members[i + 1].outAt : out.length;
    const outAt = members[i].outAt;
    if (trailerAt < members[i].at + 10) return false; // no room for the 10-byte header
    const view = out.current().subarray(outAt, outEnd);
    return crc32(view) === u32le(data, trailerAt) && view.length % 2 ** 32 === u32le(data, trailerAt + 4);
  };
  for (let i = 0; i + 1 < members.length; i++) {
    if (!verify(i, members[i + 1].at - 8)) throw corrupt(`member ${i + 1} fails its CRC32/length check`);
  }
  const last = members.length - 1;
  if (failure === undefined) {
    if (!verify(last, data.length - 8)) throw corrupt(`member ${last + 1} fails its CRC32/length check (cut short?)`);
    return out.take();
  }
  // fflate stops at anything after a member, zeros included; gzip ignores trailing zeros.
  // Accept when the last member checks out just before a run of zeros reaching the end.
  let zerosFrom = data.length;
  while (zerosFrom > 0 && data[zerosFrom - 1] === 0) zerosFrom--;
  for (let end = zerosFrom; end <= Math.min(data.length, zerosFrom + 8); end++) {
    if (end - 8 >= 0 && verify(last, end - 8)) return out.take();
  }
  const reason = failure instanceof Error ? failure.message : 'inflate failed';
  throw corrupt(reason === 'invalid gzip data' && out.length > 0 ? 'trailing garbage after the last member' : reason);
}
