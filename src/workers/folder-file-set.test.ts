// FolderFileSet over a folder handle (a fake with Chromium's behaviour): listed again, new files
// appear; a File refused after its file changed (Chromium's NotReadableError) is taken again
// from the handle, and a file that shrank is an error naming it.
import { describe, expect, it } from 'vitest';
import { isPmError } from '../pcp-core/errors';
import { FolderFileSet, type FileHandleLike, type FolderHandle } from './folder-file-set';

/** A file whose Files stop reading once it is written to again, as Chromium's do. */
class ChangingFile implements FileHandleLike {
  readonly kind = 'file';
  private version = 0;
  constructor(
    readonly name: string,
    private bytes: Uint8Array,
  ) {}
  write(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.version++;
  }
  getFile(): Promise<File> {
    const at = this.version;
    const file = new File([this.bytes.slice()], this.name);
    const slice = file.slice.bind(file);
    // Reads of a File made before the last write are refused.
    file.slice = (start?: number, end?: number) => {
      const blob = slice(start, end);
      if (this.version !== at) blob.arrayBuffer = () => Promise.reject(new DOMException('changed', 'NotReadableError'));
      return blob;
    };
    return Promise.resolve(file);
  }
}

/** The items as an async iterable, as a folder handle's values() gives its entries. */
function iterate<T>(items: readonly T[]): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      let i = 0;
      return { next: () => Promise.resolve<IteratorResult<T>>(i < items.length ? { value: items[i++], done: false } : { value: undefined, done: true }) };
    },
  };
}

function folder(name: string, files: FileHandleLike[]): FolderHandle {
  return {
    kind: 'directory',
    name,
    values: () => iterate(files),
  };
}

describe('FolderFileSet', () => {
  it('lists the folder again and reads a file that changed since it was opened', async () => {
    const a = new ChangingFile('a.0', Uint8Array.of(1, 2, 3));
    const files: FileHandleLike[] = [a];
    const fs = await FolderFileSet.read(folder('logs', files));
    expect(await fs.list('logs')).toEqual(['a.0']);
    const src = await fs.open('logs/a.0');
    expect(src.size).toBe(3);
    a.write(Uint8Array.of(1, 2, 3, 4, 5));
    // The File taken when opened is refused now: a fresh one gives the same first bytes.
    expect([...(await src.read(0, 3))]).toEqual([1, 2, 3]);
    files.push(new ChangingFile('a.1', Uint8Array.of(9)));
    expect(await fs.list('logs')).toEqual(['a.0']);
    await fs.lookAgain();
    expect(await fs.list('logs')).toEqual(['a.0', 'a.1']);
    expect((await fs.open('logs/a.0')).size).toBe(5);
  });

  it('says which file shrank under a read', async () => {
    const a = new ChangingFile('a.0', Uint8Array.of(1, 2, 3));
    const fs = await FolderFileSet.read(folder('logs', [a]));
    const src = await fs.open('logs/a.0');
    a.write(Uint8Array.of(1));
    const err = await src.read(0, 3).then(() => undefined, (e: unknown) => e);
    if (!isPmError(err)) throw new Error(`expected a PmError, got ${String(err)}`);
    expect(err.describe()).toContain('logs/a.0 (shrank to 1 bytes from 3');
  });
});
