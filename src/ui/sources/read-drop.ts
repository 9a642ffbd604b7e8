// Reads a DataTransfer (a drop) or a FileList (the picker) into DroppedFiles with relative
// paths, walking dropped folders through the File System entries API so a whole archive
// directory can be dropped at once.

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

export async function readDrop(dt: DataTransfer): Promise<DroppedFileLike[]> {
  const out: DroppedFileLike[] = [];
  const entries: Entry[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const entry = (item as { webkitGetAsEntry?: () => Entry | null }).webkitGetAsEntry?.() ?? null;
    if (entry?.isDirectory) entries.push(entry);
  }
  for (const e of entries) await walk(e, out);
  // Plain files (and synthetic drops, whose items have no entries) come through dt.files.
  for (const f of Array.from(dt.files)) {
    if (!out.some((o) => o.file === f) && !entries.some((e) => e.fullPath.replace(/^\//, '') === f.name)) out.push({ path: f.webkitRelativePath || f.name, file: f });
  }
  return out;
}

export function readPicked(list: FileList): DroppedFileLike[] {
  return Array.from(list).map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
}
