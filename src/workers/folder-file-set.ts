// A FileSet over a folder the browser lets the page read again (Chromium's File System Access
// API: a FileSystemDirectoryHandle from a drop's getAsFileSystemHandle or showDirectoryPicker).
// Unlike dropped Files, which are snapshots of the moment they were dropped, the folder can be
// listed again and each file's handle gives a fresh File with its current size: an archive
// pmlogger is writing there is followed as a URL's is (source-open.ts, ArchiveContext.follow).
import type { ByteSource } from '../pcp-core/io/byte-source';
import type { FileSet } from '../pcp-core/io/file-set';
import { ListedFileSet } from '../pcp-core/io/listed-file-set';
import { ReadAheadSource } from '../pcp-core/io/read-ahead-source';
import { checkRead } from '../pcp-core/io/read-args';
import { readBlobRange } from '../pcp-core/io/blob-source';
import { EIO, PmError } from '../pcp-core/errors';

/** The part of a FileSystemFileHandle read here (a real one fits; tests pass their own). */
export interface FileHandleLike {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
}

/** The part of a FileSystemDirectoryHandle read here. */
export interface FolderHandle {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<FolderHandle | FileHandleLike>;
}

/** Nested folders walked at most this deep (a link cycle cannot make the walk endless). */
const MAX_DEPTH = 16;
/** Files listed at most: a folder of millions of files is refused, not walked for minutes. */
const MAX_FILES = 100_000;

/**
 * One file's bytes up to its size when listed. Chromium refuses to read a File whose file
 * has changed since the File was made (NotReadableError), and pmlogger appends to its
 * latest volume every interval: a refused read takes a fresh File from the handle and reads
 * again. Bytes pmlogger once wrote do not change, so the fresh File's bytes are the same.
 */
class FolderFileSource implements ByteSource {
  private closed = false;
  readonly size: number;

  constructor(
    readonly name: string,
    private file: File,
    private readonly handle: FileHandleLike,
  ) {
    this.size = file.size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRead(this.name, offset, length, this.closed);
    const start = Math.min(offset, this.size);
    const end = Math.min(start + length, this.size);
    try {
      return new Uint8Array(await this.file.slice(start, end).arrayBuffer());
    } catch {
      // Changed since listed (see above): a fresh File, which must still hold these bytes.
      try {
        this.file = await this.handle.getFile();
      } catch (e) {
        throw new PmError(EIO, undefined, `${this.name} (${e instanceof Error ? e.message : 'cannot be read'})`);
      }
      if (this.file.size < end) throw new PmError(EIO, undefined, `${this.name} (shrank to ${this.file.size} bytes from ${this.size} while being read)`);
      return readBlobRange(this.name, this.file, start, end);
    }
  }

  /** Every read is a new ArrayBuffer of the slice's bytes. */
  readFresh(offset: number, length: number): Promise<Uint8Array> {
    return this.read(offset, length);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/**
 * The folder as a FileSet: its files under `root/…` (the folder's own name first, as a dropped
 * folder's paths are), as they were at the last look (`lookAgain`).
 */
export class FolderFileSet implements FileSet {
  private constructor(
    private readonly handle: FolderHandle,
    private current: ListedFileSet,
  ) {}

  static async read(handle: FolderHandle): Promise<FolderFileSet> {
    return new FolderFileSet(handle, await listFolder(handle));
  }

  get name(): string {
    return this.handle.name;
  }

  /** Lists the folder again: new files appear (each file's size is taken when it is opened). */
  async lookAgain(): Promise<void> {
    this.current = await listFolder(this.handle);
  }

  list(dir: string): Promise<string[]> {
    return this.current.list(dir);
  }

  isDirectory(path: string): Promise<boolean> {
    return this.current.isDirectory(path);
  }

  open(path: string): Promise<ByteSource> {
    return this.current.open(path);
  }
}

async function listFolder(root: FolderHandle): Promise<ListedFileSet> {
  const files: Array<readonly [string, () => Promise<ByteSource>]> = [];
  const walk = async (dir: FolderHandle, path: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) throw new PmError(EIO, undefined, `${path}: folders nested more than ${MAX_DEPTH} deep`);
    for await (const entry of dir.values()) {
      const p = `${path}/${entry.name}`;
      if (entry.kind === 'directory') {
        await walk(entry, p, depth + 1);
        continue;
      }
      if (files.length >= MAX_FILES) throw new PmError(EIO, undefined, `${root.name}: more than ${MAX_FILES} files`);
      // Its size is taken when it is opened, as a file system's is.
      files.push([p, async () => new ReadAheadSource(new FolderFileSource(p, await entry.getFile(), entry))]);
    }
  };
  await walk(root, root.name, 0);
  return new ListedFileSet(root.name, files);
}
