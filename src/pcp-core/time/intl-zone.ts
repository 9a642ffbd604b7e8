// Zoneinfo zones (":Australia/Melbourne", "EST5EDT", the zone of a v3 label) through the
// platform's Intl.DateTimeFormat, since pcp-core may not read /usr/share/zoneinfo: it runs in
// a browser worker. UTC offsets are exact (the Intl database is tzdata); the DST flag and
// the abbreviation are derived (see isdst and abbreviation below) and can differ from
// glibc's for zones whose tzdata abbreviation ICU does not know.
import { daysFromCivil } from './calendar';
import type { ZoneOffset } from './posix-tz';

/** Whether Intl knows the zone name. */
export function isIntlZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    // RangeError: not a zone this platform knows.
    return false;
  }
}

/** Locales tried in turn for a lettered abbreviation (ICU has them per region). */
const ABBREVIATION_LOCALES = ['en-US', 'en-AU', 'en-GB', 'en-IE', 'en-IN', 'en-ZA', 'en-CA', 'ja-JP'];
const BUCKET = 900;
const CACHE_LIMIT = 20000;

export class IntlZoneRules {
  private readonly wallClock: Intl.DateTimeFormat;
  private readonly namers: Intl.DateTimeFormat[];
  private readonly cache = new Map<number, ZoneOffset>();
  private readonly daylightMemo = new Map<string, boolean>();

  constructor(readonly name: string) {
    this.wallClock = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    this.namers = ABBREVIATION_LOCALES.map((l) => new Intl.DateTimeFormat(l, { timeZone: name, timeZoneName: 'short' }));
  }

  /** Seconds east of UTC at UTC second `sec` (exact for whole seconds). */
  gmtoff(sec: number): number {
    const parts = this.wallClock.formatToParts(new Date(sec * 1000));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? NaN);
    let year = get('year');
    if (parts.find((p) => p.type === 'era')?.value === 'BC') year = 1 - year;
    const local = daysFromCivil(year, get('month') - 1, get('day')) * 86400 + get('hour') * 3600 + get('minute') * 60 + get('second');
    return local - sec;
  }

  /**
   * Offset, DST flag and abbreviation at `sec`. Offsets are cached per 15-minute UTC bucket
   * when constant across it (zone transitions since the 1970s fall on such boundaries).
   */
  offsetAt(sec: number): ZoneOffset {
    const bucket = Math.floor(sec / BUCKET);
    const hit = this.cache.get(bucket);
    if (hit) return hit;
    const r = this.compute(sec);
    const first = bucket * BUCKET;
    if (this.gmtoff(first) === r.gmtoff && this.gmtoff(first + BUCKET - 1) === r.gmtoff) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(bucket, r);
    }
    return r;
  }

  private compute(sec: number): ZoneOffset {
    const gmtoff = this.gmtoff(sec);
    return { gmtoff, isdst: this.isDaylight(sec, gmtoff), zone: this.abbreviation(sec, gmtoff) };
  }

  /**
   * Intl has no DST flag: an offset counts as daylight time when a lower one occurs within a
   * year both before and after (so a permanent change of standard offset is not DST). This
   * matches tzdata's flag except for negative-DST zones such as Europe/Dublin.
   */
  private isDaylight(sec: number, gmtoff: number): boolean {
    const month = 30 * 86400;
    const key = `${Math.floor(sec / month)} ${gmtoff}`;
    let dst = this.daylightMemo.get(key);
    if (dst === undefined) {
      let before = false;
      let after = false;
      for (let k = 1; k <= 12 && !(before && after); k++) {
        before ||= this.gmtoff(sec - k * month) < gmtoff;
        after ||= this.gmtoff(sec + k * month) < gmtoff;
      }
      dst = before && after;
      if (this.daylightMemo.size >= CACHE_LIMIT) this.daylightMemo.clear();
      this.daylightMemo.set(key, dst);
    }
    return dst;
  }

  /**
   * A lettered abbreviation from the first locale that has one ("AEDT" from en-AU, "BST"
   * from en-GB, ...), else tzdata's numeric form ("+0530", "-03").
   */
  private abbreviation(sec: number, gmtoff: number): string {
    const date = new Date(sec * 1000);
    for (const namer of this.namers) {
      const name = namer.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
      if (/^[A-Z]{2,5}$/.test(name)) return name;
    }
    const abs = Math.abs(gmtoff);
    const h = Math.floor(abs / 3600);
    const m = Math.floor((abs % 3600) / 60);
    return `${gmtoff < 0 ? '-' : '+'}${String(h).padStart(2, '0')}${m ? String(m).padStart(2, '0') : ''}`;
  }
}
