// Sorts dropped or picked files (a folder, loose files, or both) in one pass: the files of PCP
// archives by the core's file-name rule (io/archive-file-name.ts: `B.meta`, `B.index`, `B.N`,
// each with any compression suffix libpcp knows), pmchart view files by their first bytes
// (views' looksLikeView), derived-metric configurations by their `.conf` name (as PCP names
// them in /etc/pcp/derived), and everything else as a stray with the reason. Archives are then
// grouped by the host their .meta label names, so several archives of one host (pmlogger's
// daily rotation) open as ONE source over an archive set, as libpcp reads a directory or a
// comma list; archives of different hosts stay separate sources.
import { PM_ERR_LOGFILE, PM_ERR_NOTARCHIVE, PmError } from '../pcp-core/errors';
import { parseArchiveFileName } from '../pcp-core/io/archive-file-name';
import { blobFileSet } from '../pcp-core/io/blob-file-set';
import { openStored } from '../pcp-core/io/open-stored';
import { xzDecodesOffThread } from '../pcp-core/io/xz-decoder';
import { posixBasename, posixDirname } from '../pcp-core/io/posix-path';
import { readLabel } from '../pcp-core/archive/label';
import { PM_LOG_VOL_META } from '../pcp-core/archive/log-format';
import { looksLikeView } from '../pcp-core/views';
import { toEngineError } from './engine-error';
import type { DropClassification, DroppedFile, DroppedHostArchives } from './engine-types';

/** Bytes read from a file that is no archive file to tell whether it is a view. */
const VIEW_SNIFF_BYTES = 64;

/** Derived-metric configurations go by PCP's own naming (/etc/pcp/derived/*.conf). */
const DERIVED_CONFIG_NAME = /\.conf$/;

/** The files of one archive base (directory part kept), as indices into the drop. */
interface Base {
  readonly base: string;
  readonly files: number[];
  meta: number | undefined;
}

/** The host a base's .meta label names; undefined when the label cannot be read (the open reports why). */
async function hostOf(files: readonly DroppedFile[], base: Base): Promise<string | undefined> {
  const meta = base.meta === undefined ? undefined : files[base.meta];
  if (!meta) return undefined;
  const fs = blobFileSet(meta.path, [{ path: meta.path, blob: meta.file }]);
  try {
    const source = await openStored(fs, meta.path);
    try {
      return (await readLabel(source, { vol: PM_LOG_VOL_META, checkFeatures: false })).hostname;
    } finally {
      await source.close();
    }
  } catch {
    // Deliberately no verdict here: an unreadable label makes the archive a source of its
    // own, whose open then reports libpcp's error naming the file (one message, not two).
    return undefined;
  }
}

/**
 * Starts decoding, on the xz pool, the .xz blocks the open of a drop's archive reads first:
 * the first volume's first block (its label, then the first window's records), the .meta's
 * first block and the last volume's last block (the archive's end). They decode while the drop
 * is classified and the open reads labels, instead of after; the open's own decodes of the
 * same blocks then share them (the pool holds them: XzDecodeOptions.hold). One archive only:
 * a drop of many would decode blocks no first chart needs.
 */
function predecodeFirstBlocks(files: readonly DroppedFile[], base: Base): void {
  if (!xzDecodesOffThread()) return;
  const xz = base.files.flatMap((i) => {
    const f = files[i];
    const parsed = f ? parseArchiveFileName(posixBasename(f.path)) : null;
    return f && parsed?.compression?.suffix === '.xz' ? [{ file: f, parsed }] : [];
  });
  const volumes = xz.filter((x) => x.parsed.kind === 'volume').sort((a, b) => a.parsed.volume - b.parsed.volume);
  // Read at once, asked in this order: the first volume's decode is the longest (the first
  // window's records lie tens of MB into a 100 MB block) and goes first as a decode ahead, so
  // it has a worker at once and the pool starts no other decode ahead beside it (the next
  // volume waits); the last volume and the .meta follow as decodes a read waits for, one after
  // the other on the other worker, in the order the open reads them whole (the archive's end,
  // then the metadata). The open asks for each again and shares it.
  const wanted = [
    { at: volumes[0], block: 'first', ahead: true },
    { at: volumes.length > 1 ? volumes[volumes.length - 1] : undefined, block: 'last', ahead: false },
    { at: xz.find((x) => x.parsed.kind === 'meta'), block: 'first', ahead: false },
  ] as const;
  const prepared = wanted.flatMap((w) => {
    if (!w.at) return [];
    const ask = prepareDecode(w.at.file, w.block).catch(() => {
      // Deliberately dropped: a file that cannot be read here is read again by the open,
      // which reports what is wrong with it, naming the file (one message, not two).
      return undefined;
    });
    return [{ ask, ahead: w.ahead }];
  });
  void (async () => {
    for (const p of prepared) (await p.ask)?.(p.ahead);
  })();
}

/** What asks for the decode of `f`'s first or last block (XzSource.prepareDecode); undefined when not .xz. */
async function prepareDecode(f: DroppedFile, block: 'first' | 'last'): Promise<((ahead: boolean) => void) | undefined> {
  const { XzSource } = await import('../pcp-core/io/xz-source');
  const source = await openStored(blobFileSet(f.path, [{ path: f.path, blob: f.file }]), f.path);
  try {
    return source instanceof XzSource ? await source.prepareDecode(block === 'first' ? 0 : source.blocks.length - 1) : undefined;
  } finally {
    await source.close();
  }
}

/** Classifies a drop: archives grouped per host, view files, strays (each with its reason). */
export async function classifyDrop(files: readonly DroppedFile[]): Promise<DropClassification> {
  const bases = new Map<string, Base>();
  const views: number[] = [];
  const derivedConfigs: number[] = [];
  const strays: DropClassification['strays'][number][] = [];
  for (const [i, f] of files.entries()) {
    const parsed = parseArchiveFileName(posixBasename(f.path));
    if (parsed) {
      const dir = posixDirname(f.path);
      const key = dir === '.' || dir === '' ? parsed.base : `${dir}/${parsed.base}`;
      let b = bases.get(key);
      if (!b) bases.set(key, (b = { base: key, files: [], meta: undefined }));
      b.files.push(i);
      if (parsed.kind === 'meta') b.meta = i;
      continue;
    }
    if (looksLikeView(await f.file.slice(0, VIEW_SNIFF_BYTES).text())) {
      views.push(i);
      continue;
    }
    if (DERIVED_CONFIG_NAME.test(posixBasename(f.path))) {
      derivedConfigs.push(i);
      continue;
    }
    strays.push({ index: i, error: toEngineError(new PmError(PM_ERR_NOTARCHIVE, 'not a PCP archive file (NAME.meta, NAME.index, NAME.N, maybe compressed), a pmchart view nor a derived-metric configuration (NAME.conf)', f.path)) });
  }
  const [only] = bases.values();
  if (bases.size === 1 && only.meta !== undefined) predecodeFirstBlocks(files, only);
  const hosts = new Map<string, DroppedHostArchives & { bases: string[]; files: number[] }>();
  const alone: DroppedHostArchives[] = [];
  for (const b of bases.values()) {
    if (b.meta === undefined) {
      // libpcp cannot open an archive without its metadata (pmNewContext: PM_ERR_LOGFILE).
      for (const i of b.files) strays.push({ index: i, error: toEngineError(new PmError(PM_ERR_LOGFILE, `the drop has no ${posixBasename(b.base)}.meta, so archive ${posixBasename(b.base)} cannot be opened`, files[i]?.path ?? b.base)) });
      continue;
    }
    const host = await hostOf(files, b);
    if (host === undefined) {
      alone.push({ hostname: '', bases: [b.base], files: [...b.files] });
      continue;
    }
    const g = hosts.get(host);
    if (g) {
      g.bases.push(b.base);
      g.files.push(...b.files);
    } else {
      hosts.set(host, { hostname: host, bases: [b.base], files: [...b.files] });
    }
  }
  // Bases in name order: pmlogger's names sort by time, and the set sorts by label start anyway.
  const archives = [...hosts.values(), ...alone].map((g) => ({ ...g, bases: [...g.bases].sort() }));
  return { archives, views, derivedConfigs, strays: strays.sort((a, b) => a.index - b.index) };
}
