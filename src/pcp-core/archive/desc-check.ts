// pmlogcheck's integrity checks of an archive's metric descriptors (its pass 2, PCP 6.0.3):
// libpcp accepts a pmDesc with an unknown type or semantics, impossible units or an indom of
// another domain, and so does the core; pmlogcheck then warns, once per problem, in these
// words. An archive's opening reports them (Archive.warnings) so the user learns why a
// metric of such an archive looks odd, while its good metrics work as usual.
import { formatPmId, pmidDomain, indomDomain, PM_INDOM_NULL, PM_SEM_COUNTER, PM_SEM_DISCRETE, PM_SEM_INSTANT, PM_TYPE_32, PM_TYPE_HIGHRES_EVENT, PM_TYPE_NOSUPPORT, type Desc, type PmId } from '../types';

/** One warning about an archive, in pmlogcheck's words (the line names the file). */
export interface ArchiveWarning {
  /** The file the warning is about, as pmlogcheck names it (`BASE.meta`). */
  readonly file: string;
  /** pmlogcheck's line, file name first. */
  readonly message: string;
}

const PM_SPACE_EBYTE = 6;
const PM_TIME_HOUR = 5;

/**
 * The order libpcp's __pmHashWalk visits keys added with __pmHashAdd in `keys` order: the
 * table starts with one bucket and grows (×2, then rounded up past multiples of 2, 3 and 5)
 * once it holds more than four nodes a bucket; each bucket lists its newest node first.
 * pmlogcheck walks the descriptors so, and its warnings come in that order.
 */
export function libpcpHashWalkOrder(keys: readonly number[]): number[] {
  let buckets: number[][] = [];
  let nodes = 0;
  for (const raw of keys) {
    const key = raw >>> 0;
    nodes++;
    if (buckets.length === 0) {
      buckets = [[]];
    } else if (Math.floor(nodes / 4) > buckets.length) {
      const old = buckets;
      let size = old.length * 2;
      if (size % 2) size++;
      if (size % 3) size += 2;
      if (size % 5) size += 2;
      buckets = Array.from({ length: size }, () => []);
      // Re-linked from the last old bucket down, each chain from its head: a push to the front.
      for (let b = old.length - 1; b >= 0; b--) for (const k of old[b] ?? []) buckets[k % size]?.unshift(k);
    }
    buckets[key % buckets.length]?.unshift(key);
  }
  return buckets.flat();
}

/**
 * pmlogcheck's pass-2 warnings for the descriptors one archive's .meta introduced (`descs`,
 * in file order): `archive` is the archive's name as given, `nameOf` pmNameID (undefined
 * when the pmid has no name: "unknown").
 */
export function checkDescs(archive: string, descs: readonly Desc[], nameOf: (id: PmId) => string | undefined): ArchiveWarning[] {
  const file = `${archive}.meta`;
  const byId = new Map<number, Desc>();
  for (const d of descs) if (!byId.has(d.pmid >>> 0)) byId.set(d.pmid >>> 0, d);
  // Every archive is checked as it opens: the usual case (no problem) costs one pass, no names
  // looked up and no hash-walk order.
  if (![...byId.values()].some((d) => descProblems(d).length > 0)) return [];
  const out: ArchiveWarning[] = [];
  for (const key of libpcpHashWalkOrder([...byId.keys()])) {
    const d = byId.get(key);
    if (!d) continue;
    const problems = descProblems(d);
    if (problems.length === 0) continue;
    const head = `${file}: ${nameOf(d.pmid) ?? 'unknown'} [${formatPmId(d.pmid)}]: `;
    for (const text of problems) out.push({ file, message: head + text });
  }
  return out;
}

/** What pmlogcheck says is wrong with one descriptor, in its order and words ([] for none). */
function descProblems(d: Desc): string[] {
  const out: string[] = [];
  if (d.type === PM_TYPE_NOSUPPORT) return out;
  const u = d.units;
  if (d.type < PM_TYPE_32 || d.type > PM_TYPE_HIGHRES_EVENT) out.push(`bad type (${d.type}) in pmDesc`);
  if (d.indom !== PM_INDOM_NULL && pmidDomain(d.pmid) !== indomDomain(d.indom)) out.push(`domain of pmid (${pmidDomain(d.pmid)}) != domain of indom (${indomDomain(d.indom)})`);
  if (d.sem !== PM_SEM_COUNTER && d.sem !== PM_SEM_INSTANT && d.sem !== PM_SEM_DISCRETE) out.push(`bad semantics (${d.sem}) in pmDesc`);
  // pmlogcheck's heuristic: a dimension outside -2..2 is not a real unit.
  if (u.dimSpace < -2 || u.dimSpace > 2) out.push(`bad dimension (${u.dimSpace}) for Space in pmDesc`);
  if (u.dimTime < -2 || u.dimTime > 2) out.push(`bad dimension (${u.dimTime}) for Time in pmDesc`);
  if (u.dimCount < -2 || u.dimCount > 2) out.push(`bad dimension (${u.dimCount}) for Count in pmDesc`);
  if (u.dimSpace === 0 && u.scaleSpace !== 0) out.push(`non-zero scale (${u.scaleSpace}) with zero dimension for Space in pmDesc`);
  if (u.scaleSpace > PM_SPACE_EBYTE) out.push(`bad scale (${u.scaleSpace}) for Space in pmDesc`);
  if (u.dimTime === 0 && u.scaleTime !== 0) out.push(`non-zero scale (${u.scaleTime}) with zero dimension for Time in pmDesc`);
  if (u.scaleTime > PM_TIME_HOUR) out.push(`bad scale (${u.scaleTime}) for Time in pmDesc`);
  if (u.dimCount === 0 && u.scaleCount !== 0) out.push(`non-zero scale (${u.scaleCount}) with zero dimension for Count in pmDesc`);
  return out;
}
