// Adapter from the archive reader (src/pcp-core/archive: ArchiveSet, merged metadata) to the
// replay engine's input (replay/replay-source.ts). Data volumes are opened (labels checked)
// once here, so replay can ask for any volume synchronously; their bytes are still read
// lazily, block by block, as records are needed.
import type { ArchiveSet } from '../archive';
import type { InDom, PmId } from '../types';
import type { InDomObservation, ReplayArchive, ReplayMetadata, ReplaySet, ReplayVolume } from '../replay/replay-source';

export async function replaySetOf(set: ArchiveSet): Promise<ReplaySet> {
  const archives: ReplayArchive[] = [];
  for (const a of set.archives) {
    const volumes = new Map<number, ReplayVolume>();
    for (let v = a.minVol; v <= a.maxVol; v++) {
      const source = await a.volume(v);
      if (source) {
        volumes.set(v, { file: a.files.volumes.get(v), size: source.size, read: (offset, length) => source.read(offset, length), readAhead: async () => source.readAhead?.(0, source.size) });
      }
    }
    archives.push({
      name: a.name,
      version: a.format.version,
      labelSize: a.format.labelSize,
      start: a.start,
      minVol: a.minVol,
      maxVol: a.maxVol,
      volume: (vol) => volumes.get(vol),
      index: a.index,
    });
  }
  const md = set.metadata;
  const newestFirst = new Map<number, readonly InDomObservation[]>();
  const meta: ReplayMetadata = {
    desc: (pmid: PmId) => md.desc(pmid),
    indomUnion: (indom: InDom) => md.indomUnion(indom)?.instances,
    indomObservations(indom: InDom) {
      let obs = newestFirst.get(indom);
      if (!obs) {
        // The reader keeps time order; libpcp's chain (and its caliper walk) is newest first.
        obs = md
          .indomObservations(indom)
          .map((o) => ({ time: o.stamp, instances: o.set.instances }))
          .reverse();
        newestFirst.set(indom, obs);
      }
      return obs;
    },
  };
  return { archives, meta };
}
