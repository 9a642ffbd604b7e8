// Turns a SourceSpec into a Context: dropped files become an archive context over a FileSet of
// Blobs, a URL an archive context over HTTP Range reads, a host a live context through the
// pmcd WebSocket bridge or through a pmproxy's /pmapi. The one place that knows which pcp-core modules build contexts, so
// the facade (engine-api.ts) stays independent of them.
import { openArchiveContext, type ArchiveContext } from '../pcp-core/context/archive-context';
import { PM_MODE_FORW, type Context } from '../pcp-core/context/context';
import { LiveContext } from '../pcp-core/context/live-context';
import { PmapiContext } from '../pcp-core/context/pmapi-context';
import { FleetTransport } from '../pcp-core/fleet/transport';
import { PM_ERR_EOL, PM_ERR_NOTARCHIVE, PmError, isPmError } from '../pcp-core/errors';
import { blobFileSet } from '../pcp-core/io/blob-file-set';
import { HttpFileSet } from '../pcp-core/io/http-file-set';
import { expandArchiveList } from '../pcp-core/io/archive-files';
import { FolderFileSet } from './folder-file-set';
import { openWebSocketTransport } from '../pcp-core/pdu/websocket-transport';
import { parseArchiveFileName } from '../pcp-core/io/archive-file-name';
import { posixBasename, posixDirname } from '../pcp-core/io/posix-path';
import type { EngineError, ProgressFn, SourceSpec } from './engine-types';
import { timestampToMs } from './series-time';

/** An opened source: its context plus what the facade reports about it. */
export interface OpenedSource {
  readonly ctx: Context;
  readonly name: string;
  /** Archive end in epoch ms (pmGetArchiveEnd); NaN for live. */
  readonly endMs: number;
  /** Typical sampling interval, 0 when unknown. */
  readonly intervalMs: number;
  /** The archives the source spans, in time order (one name each); [] for live. */
  readonly archives: readonly string[];
  /** What the user should know about a source that opened: libpcp errors, or pmlogcheck's warnings (desc-check.ts). */
  readonly warnings: readonly (PmError | EngineError)[];
  /**
   * For an archive that can be read again as pmlogger grows it (a URL, a folder): reads it
   * again and returns its new end in epoch ms (ArchiveContext.follow) and its archives (a
   * folder's grow by those pmlogger starts there).
   */
  readonly follow?: () => Promise<{ readonly endMs: number; readonly archives: readonly string[] }>;
}

/** The archive bases among dropped files when the spec does not name them (a single archive's files). */
function basesOf(spec: Extract<SourceSpec, { kind: 'files' }>): string[] {
  if (spec.archives) return [...spec.archives];
  const bases = new Set<string>();
  for (const f of spec.files) {
    const parsed = parseArchiveFileName(posixBasename(f.path));
    const dir = posixDirname(f.path);
    if (parsed) bases.add(dir === '.' || dir === '' ? parsed.base : `${dir}/${parsed.base}`);
  }
  return [...bases];
}

/** A set's display name: the archive's name, or the first and last of several. */
function setName(names: readonly string[]): string {
  const short = names.map((n) => posixBasename(n));
  return short.length <= 1 ? (short[0] ?? '') : `${short[0]} … ${short[short.length - 1]}`;
}

export function describeSpec(spec: SourceSpec): string {
  switch (spec.kind) {
    case 'files':
      return spec.files.length === 1 ? (spec.files[0]?.path ?? 'files') : (basesOf(spec).join(', ') || `${spec.files.length} files`);
    case 'url':
      return spec.url;
    case 'live':
      return spec.pmproxyUrl !== undefined ? `${spec.host} via pmproxy` : spec.host;
  }
}

/** The set's archives in the order it sorts them (label start, as libpcp): one name each. */
function archiveNames(ctx: ArchiveContext): string[] {
  return ctx.set.archives.map((a) => posixBasename(a.name));
}

/**
 * The context name for archives in a followed folder: their directory when they are all the
 * archives there (libpcp's set of a directory, which a new archive pmlogger starts there
 * joins while followed), else their comma list (a folder shared with another host's archives).
 */
async function folderSpec(fs: FolderFileSet, bases: readonly string[]): Promise<string> {
  const dirs = new Set(bases.map((b) => posixDirname(b)));
  const [dir] = dirs;
  if (dirs.size === 1 && dir !== undefined && dir !== '.' && dir !== '') {
    const there = await expandArchiveList(fs, dir);
    if (there.length === bases.length && bases.every((b) => there.includes(b))) return dir;
  }
  return bases.join(',');
}

/** Records read to estimate the logging interval. */
const INTERVAL_PROBE_RECORDS = 40;

/** The median gap between the first records: the archive's usual logging interval. */
async function probeInterval(ctx: ArchiveContext): Promise<number> {
  const start = ctx.source.kind === 'archive' ? ctx.source.start : { sec: 0, nsec: 0 };
  ctx.setMode(PM_MODE_FORW, start);
  const times: number[] = [];
  for (let i = 0; i < INTERVAL_PROBE_RECORDS; i++) {
    try {
      times.push(timestampToMs(await ctx.fetchArchiveStamp()));
    } catch (e) {
      if (isPmError(e) && e.code === PM_ERR_EOL) break;
      throw e;
    }
  }
  // Records a few ms apart are one sample split in two (e.g. "once" metrics): ignore them.
  const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t)).filter((g) => g > 50).sort((a, b) => a - b);
  return gaps.length ? (gaps[gaps.length >> 1] ?? 0) : 0;
}

async function archiveOpened(ctx: ArchiveContext, name: string): Promise<OpenedSource> {
  try {
    const endMs = timestampToMs(await ctx.archiveEnd());
    const intervalMs = await probeInterval(ctx);
    return { ctx, name, endMs, intervalMs, archives: archiveNames(ctx), warnings: (await ctx.set.warnings()).map((w) => ({ code: 'pmlogcheck', message: w.message, context: w.file })) };
  } catch (e) {
    await ctx.close();
    throw e;
  }
}

/**
 * A dashboard's reconnect back-off: capped at 3 s so the charts are back within about 5 s of
 * pmcd (issue 13); the UI also offers "retry now". Each attempt is one WebSocket to the bridge.
 */
export const DASHBOARD_RECONNECT_MS: readonly number[] = [500, 1000, 2000, 3000];

export async function openSource(spec: SourceSpec, progress: ProgressFn, options: { readonly counterWrap?: boolean } = {}): Promise<OpenedSource> {
  switch (spec.kind) {
    case 'files': {
      const bases = basesOf(spec);
      if (bases.length === 0) throw new PmError(PM_ERR_NOTARCHIVE, 'expected the files of an archive (BASE.meta, BASE.index, BASE.0 …)', describeSpec(spec));
      const name = setName(bases);
      progress({ phase: `reading ${name}`, done: 0, total: 0 });
      if (spec.folder) {
        // A folder the browser lets the page read again: read from it, and followed.
        const fs = await FolderFileSet.read(spec.folder);
        const ctx = await openArchiveContext(fs, await folderSpec(fs, bases), { counterWrap: options.counterWrap });
        const opened = await archiveOpened(ctx, name);
        const follow = async (): Promise<{ endMs: number; archives: string[] }> => {
          await fs.lookAgain();
          const endMs = timestampToMs(await ctx.follow(fs));
          return { endMs, archives: archiveNames(ctx) };
        };
        return { ...opened, follow };
      }
      const fs = blobFileSet(name, spec.files.map((f) => ({ path: f.path, blob: f.file })));
      // Several archives of one host: one context over libpcp's comma list (archive-set.ts).
      const ctx = await openArchiveContext(fs, bases.join(','), { counterWrap: options.counterWrap });
      return archiveOpened(ctx, name);
    }
    case 'url': {
      progress({ phase: `finding the files of ${spec.url}`, done: 0, total: 0 });
      const fs = await HttpFileSet.forArchive(spec.url);
      progress({ phase: `reading ${fs.archive}`, done: 0, total: 0 });
      const ctx = await openArchiveContext(fs, fs.archive, { counterWrap: options.counterWrap });
      const opened = await archiveOpened(ctx, fs.archive);
      // Volumes pmlogger started since are looked for, then the archive is read again.
      const follow = async (): Promise<{ endMs: number; archives: string[] }> => {
        await fs.lookAgain();
        const endMs = timestampToMs(await ctx.follow(fs));
        return { endMs, archives: archiveNames(ctx) };
      };
      return { ...opened, follow };
    }
    case 'live': {
      if (spec.pmproxyUrl !== undefined) {
        progress({ phase: `asking ${spec.pmproxyUrl} for ${spec.host}`, done: 0, total: 0 });
        const ctx = await PmapiContext.open(new FleetTransport({ baseUrl: spec.pmproxyUrl, fetch: (url, init) => fetch(url, init) }), { hostspec: spec.host });
        return { ctx, name: describeSpec(spec), endMs: NaN, intervalMs: 0, archives: [], warnings: [] };
      }
      progress({ phase: `connecting to ${spec.host}`, done: 0, total: 0 });
      const ctx = await LiveContext.open({ target: spec.host, connect: () => openWebSocketTransport(spec.bridgeUrl), reconnectDelaysMs: DASHBOARD_RECONNECT_MS });
      return { ctx, name: spec.host, endMs: NaN, intervalMs: 0, archives: [], warnings: [] };
    }
  }
}
