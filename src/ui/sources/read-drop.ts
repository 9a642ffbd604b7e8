// Reads a DataTransfer (a drop) or a FileList (the picker) into DroppedFiles with relative
// paths, walking dropped folders through the File System entries API so a whole archive
// directory can be dropped at once. Where the browser gives a dropped or picked folder's
// FileSystemDirectoryHandle (Chromium's File System Access API), the handle comes along: the
// engine reads the folder again through it, and follows the archives pmlogger writes there.
import { notify } from '../menu/notices';

interface Entry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly fullPath: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: Entry[]) => void, fail: (e: unknown) => void): void };
}

export interface DroppedFileLike {
  readonly path: string;
  readonly file: File;
}

async function walk(entry: Entry, out: DroppedFileLike[]): Promise<void> {
  if (entry.isFile && entry.file) {
    const f = await new Promise<File>((ok, fail) => entry.file?.(ok, fail));
    out.push({ path: entry.fullPath.replace(/^\//, ''), file: f });
    return;
  }
  if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    // readEntries returns batches until an empty one.
    for (;;) {
      const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
      if (batch.length === 0) break;
      for (const e of batch) await walk(e, out);
    }
  }
}

/** What a drop or a folder pick gave: the files, and the folders the page may read again. */
export interface DroppedItems {
  readonly files: DroppedFileLike[];
  /** Dropped or picked folders as handles (Chromium); their files' paths start with their names. */
  readonly folders: FileSystemDirectoryHandle[];
}

/** DataTransferItem.getAsFileSystemHandle (Chromium; not in TypeScript's DOM types yet). */
type HandleItem = DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };

export async function readDrop(dt: DataTransfer): Promise<DroppedItems> {
  const out: DroppedFileLike[] = [];
  // Asked for while the drop event runs: the items are gone after it.
  const dropped: Array<{ entry: Entry | null; handle: Promise<FileSystemHandle | null> | undefined }> = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    dropped.push({ entry: (item as { webkitGetAsEntry?: () => Entry | null }).webkitGetAsEntry?.() ?? null, handle: (item as HandleItem).getAsFileSystemHandle?.() });
  }
  const folders: FileSystemDirectoryHandle[] = [];
  const walked: string[] = [];
  for (const { entry, handle } of dropped) {
    const name = entry?.fullPath.replace(/^\//, '') ?? '';
    let folder: FileSystemDirectoryHandle | undefined;
    try {
      const h = await handle;
      if (h?.kind === 'directory') folder = h as FileSystemDirectoryHandle;
    } catch (e) {
      notify('warning', `${name}: the browser would not let the page read this folder again, so it is opened as a snapshot (not followed as pmlogger writes it): ${e instanceof Error ? e.message : String(e)}`);
    }
    if (folder) {
      // The same files as the entries give, through the handle the engine reads again.
      const items = await readFolder(folder);
      out.push(...items.files);
      folders.push(folder);
      walked.push(folder.name);
    } else if (entry?.isDirectory) {
      await walk(entry, out);
      walked.push(name);
    }
  }
  // Plain files (and synthetic drops, whose items have no entries) come through dt.files.
  for (const f of Array.from(dt.files)) {
    if (!out.some((o) => o.file === f) && !walked.includes(f.name)) out.push({ path: f.webkitRelativePath || f.name, file: f });
  }
  return { files: out, folders };
}

/** window.showDirectoryPicker (Chromium's File System Access API), where the browser has it. */
export function directoryPicker(): (() => Promise<FileSystemDirectoryHandle>) | undefined {
  const w = window as Window & { showDirectoryPicker?: (options?: { mode?: 'read' }) => Promise<FileSystemDirectoryHandle> };
  const pick = w.showDirectoryPicker;
  return pick ? () => pick.call(w, { mode: 'read' }) : undefined;
}

/** A picked folder's files, paths starting with the folder's name as a dropped folder's do. */
export async function readFolder(folder: FileSystemDirectoryHandle): Promise<DroppedItems> {
  const files: DroppedFileLike[] = [];
  const walkHandle = async (dir: FileSystemDirectoryHandle, path: string): Promise<void> => {
    for await (const h of dir.values()) {
      if (h.kind === 'directory') await walkHandle(h, `${path}/${h.name}`);
      else files.push({ path: `${path}/${h.name}`, file: await (h).getFile() });
    }
  };
  await walkHandle(folder, folder.name);
  return { files, folders: [folder] };
}

export function readPicked(list: FileList): DroppedFileLike[] {
  return Array.from(list).map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
}
