// A FileSet over Files the user dropped or picked in the browser (io/file-set.ts): a whole
// folder (each File's webkitRelativePath, "run/20240101.0") or loose files (their names).
// Listing order is the order given, as with any ListedFileSet.
import { BlobSource } from './blob-source';
import { ReadAheadSource } from './read-ahead-source';
import { ListedFileSet } from './listed-file-set';

/** A dropped or picked file and the path it has in the set. */
export interface BlobEntry {
  readonly path: string;
  readonly blob: Blob;
}

/** The path a File has in the set: its folder-relative path when it came with a folder. */
export function pathOfFile(file: File): string {
  const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
  return relative ? relative : file.name;
}

/** A FileSet of `files` (Files, or explicit path/Blob pairs); `name` is for messages. */
export function blobFileSet(name: string, files: Iterable<File | BlobEntry>): ListedFileSet {
  const entries = [...files].map((f) => (f instanceof Blob ? { path: pathOfFile(f), blob: f } : f));
  return new ListedFileSet(
    name,
    // Forward passes read 4 MiB slices ahead, several at once (read-ahead-source.ts): one
    // slice at a time leaves the worker waiting on the browser's file reads.
    entries.map(({ path, blob }) => [path, () => Promise.resolve(new ReadAheadSource(new BlobSource(blob, path)))] as const),
  );
}
