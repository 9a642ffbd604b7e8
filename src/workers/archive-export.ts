// The engine's side of "export the visible window as a PCP archive" (issue 8): the records
// of an archive source between two times become a new V3 archive (pcp-core/archive-writer,
// pmlogextract's semantics), packed with its three files in one ustar download that `tar xf`
// unpacks beside the PCP tools. Live sources have no archive to copy and are refused.
import { extractWindow } from '../pcp-core/archive-writer';
import { ArchiveContext } from '../pcp-core/context/archive-context';
import type { Context } from '../pcp-core/context/context';
import { DerivedContext } from '../pcp-core/derived/derived-context';
import { PM_ERR_NOTARCHIVE, PmError } from '../pcp-core/errors';
import { tarParts } from '../pcp-core/export/tar';
import { msToTimestamp } from './series-time';

export interface ExportedArchive {
  /** Base name of the new archive, e.g. "pmdash-demo-20231114T221320Z". */
  readonly base: string;
  /** The .tar holding BASE.meta, BASE.index and BASE.0, in parts (a Blob joins them). */
  readonly tarParts: readonly Uint8Array<ArrayBuffer>[];
  readonly records: number;
  /** Time of the first and last record copied (epoch ms). */
  readonly firstMs: number;
  readonly lastMs: number;
}

/** "20231114T221320Z" for an instant (UTC, whole seconds). */
export function compactUtc(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** Copies the records of [t0Ms, t1Ms] of an archive source into a new archive. */
export async function exportArchiveWindow(ctx: Context, name: string, t0Ms: number, t1Ms: number): Promise<ExportedArchive> {
  const inner = ctx instanceof DerivedContext ? ctx.inner : ctx;
  if (!(inner instanceof ArchiveContext)) throw new PmError(PM_ERR_NOTARCHIVE, 'only archive sources can be exported as an archive', name);
  const image = await extractWindow(inner.set, { from: msToTimestamp(t0Ms), to: msToTimestamp(t1Ms) });
  const toMs = (t: { sec: number; nsec: number }): number => t.sec * 1000 + t.nsec / 1e6;
  const firstMs = toMs(image.label.start);
  // A joined source is named "A … B": the file name keeps to the characters shells and the PCP
  // tools take unquoted (a run of others becomes one "_").
  const base = `${name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'archive'}-${compactUtc(firstMs)}`;
  const mtimeSec = Math.floor(Date.now() / 1000);
  const parts = tarParts([
    { name: `${base}.meta`, bytes: image.meta, mtimeSec },
    { name: `${base}.index`, bytes: image.index, mtimeSec },
    { name: `${base}.0`, bytes: image.volumeParts, mtimeSec },
  ]);
  return { base, tarParts: parts, records: image.records, firstMs, lastMs: toMs(image.end) };
}
