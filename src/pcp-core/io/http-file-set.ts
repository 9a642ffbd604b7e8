// A FileSet for one archive at an HTTP(S) URL (io/file-set.ts). HTTP cannot list a
// directory, so the archive's files are found by asking for them, and the set then lists
// exactly what was found, as if the directory held only that archive. The rule:
//
//   The URL names the archive by its base name or any one of its files (as pmNewContext
//   accepts, archive-file-name.ts: the name is taken as a file when it exists). For B.meta, B.index and B.N (N = 0, 1, 2, ...) each
//   spelling is asked for: plain, then every compression suffix in libpcp's table order;
//   the first that exists is listed (libpcp's own preference for volumes). Volume numbers
//   are tried upwards from 0 and the search stops after 3 missing numbers in a row, so
//   volumes starting above 2 or with gaps of 3 or more are not found this way (open them
//   from files or a folder instead).
//
// "Asking" is a HEAD request; a server that refuses HEAD (405/501) is asked with a 1-byte
// Range GET. 404/410 mean absent; any other failure is an error naming the URL.
import type { ByteSource } from './byte-source';
import type { FileSet } from './file-set';
import { COMPRESSION_SUFFIXES } from './compression';
import { parseArchiveFileName } from './archive-file-name';
import { ReadAheadSource } from './read-ahead-source';
import { HTTP_BULK_BYTES, HttpSource, fetchOrFail, httpError, type Fetch, type HttpSourceOptions } from './http-source';
import { ENOENT, PmError } from '../errors';

/** Missing volume numbers in a row that end the search. */
export const HTTP_VOLUME_GAP = 3;

export class HttpFileSet implements FileSet {
  private constructor(
    /** The directory URL the files are relative to (ends with '/'). */
    readonly base: string,
    /** The archive's base name B: resolve `B` against this set. */
    readonly archive: string,
    private files: readonly string[],
    private readonly options: HttpSourceOptions,
  ) {}

  /**
   * A followed archive (pmlogger still writing it): the volumes after the highest found are
   * asked for (pmlogger numbers them one after another, so the first missing ends the
   * search), and so is the index if it was missing. The list then names them.
   */
  async lookAgain(): Promise<void> {
    const exists = (file: string): Promise<boolean> => probe(this.options.fetch ?? ((u, init) => fetch(u, init)), this.base + encodeURIComponent(file));
    const found: string[] = [];
    let highest = -1;
    for (const f of this.files) {
      const parsed = parseArchiveFileName(f);
      if (parsed?.kind === 'volume') highest = Math.max(highest, parsed.volume);
    }
    const hasIndex = this.files.some((f) => parseArchiveFileName(f)?.kind === 'index');
    if (!hasIndex && (await exists(`${this.archive}.index`))) found.push(`${this.archive}.index`);
    // pmlogger writes volumes uncompressed: only the plain spelling is asked for.
    for (let n = highest + 1; await exists(`${this.archive}.${n}`); n++) found.push(`${this.archive}.${n}`);
    if (found.length > 0) this.files = [...this.files, ...found];
  }

  get name(): string {
    return this.base + this.archive;
  }

  /** Finds the files of the archive `url` names; rejects only when the server fails. */
  static async forArchive(url: string, options: HttpSourceOptions = {}): Promise<HttpFileSet> {
    const parsed = new URL(url);
    const slash = parsed.pathname.lastIndexOf('/');
    const last = decodeURIComponent(parsed.pathname.slice(slash + 1));
    if (last === '') throw new PmError(ENOENT, undefined, `${url} (HTTP cannot list a directory: name an archive or one of its files)`);
    parsed.pathname = parsed.pathname.slice(0, slash + 1);
    parsed.search = '';
    parsed.hash = '';
    const base = parsed.toString();
    const fetchFn: Fetch = options.fetch ?? ((u, init) => fetch(u, init));
    const exists = (file: string): Promise<boolean> => probe(fetchFn, base + encodeURIComponent(file));
    /** The first stored spelling of `file` that exists. */
    const stored = async (file: string): Promise<string | undefined> => {
      const spellings = [file, ...COMPRESSION_SUFFIXES.map((c) => file + c.suffix)];
      const found = await Promise.all(spellings.map(exists));
      return spellings[found.indexOf(true)];
    };
    // As pmNewContext: a name that exists (in some spelling) is a file of the archive, whose
    // suffix is stripped; otherwise it is the base name itself ("20180416.10.00").
    const archive = (await stored(last)) ? (parseArchiveFileName(last)?.base ?? last) : last;
    const files: string[] = [];
    for (const kind of ['meta', 'index']) {
      const name = await stored(`${archive}.${kind}`);
      if (name) files.push(name);
    }
    for (let n = 0, missing = 0; missing < HTTP_VOLUME_GAP; n++) {
      const name = await stored(`${archive}.${n}`);
      if (name) files.push(name);
      missing = name ? 0 : missing + 1;
    }
    return new HttpFileSet(base, archive, files, { ...options, fetch: fetchFn });
  }

  /** Only the set's one directory exists: the files found, in the order above. */
  list(dir: string): Promise<string[]> {
    if (dir === '' || dir === '.' || dir === './') return Promise.resolve([...this.files]);
    return Promise.reject(new PmError(ENOENT, undefined, this.base + dir));
  }

  isDirectory(_path: string): Promise<boolean> {
    return Promise.resolve(false);
  }

  open(path: string): Promise<ByteSource> {
    const file = path.replace(/^(\.\/)+/, '');
    if (!this.files.includes(file)) return Promise.reject(new PmError(ENOENT, undefined, this.base + file));
    const url = this.base + encodeURIComponent(file);
    // Forward passes fetch 1 MiB ranges ahead, up to 4 at once (read-ahead-source.ts): over a
    // network, smaller than a file's chunks, so a chart's window reads little beyond itself.
    return HttpSource.open(url, { ...this.options, name: url }).then((source) => new ReadAheadSource(source, { chunkBytes: HTTP_BULK_BYTES, depth: 4 }));
  }
}

/** Whether `url` exists: HEAD, or a 1-byte GET where HEAD is refused. */
async function probe(fetchFn: Fetch, url: string): Promise<boolean> {
  let response = await fetchOrFail(fetchFn, url, url, { method: 'HEAD' });
  if (response.status === 405 || response.status === 501) {
    response = await fetchOrFail(fetchFn, url, url, { headers: { Range: 'bytes=0-0' } });
    await response.body?.cancel();
  }
  if (response.ok || response.status === 416) return true;
  if (response.status === 404 || response.status === 410) return false;
  throw httpError(url, response);
}
