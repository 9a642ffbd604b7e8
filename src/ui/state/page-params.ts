// pmchart's command line as page parameters (issue 13): `?archive=URL` (repeatable, -a),
// `?host=HOST` (repeatable, -h), `?view=NAME|URL` (-c), `?S= ?T= ?O=` (-S -T -O in PCP time
// syntax), `?t=` (-t, pmParseInterval), `?Z=TZ` (-Z), `?z` (-z, the archive host's zone) and
// `?empty`. Pure: reading the address; url-sync.ts applies it (the engine parses the times).

export interface PageParams {
  readonly archives: readonly string[];
  readonly hosts: readonly string[];
  /** A standard view's name or a view file's URL. */
  readonly view: string | undefined;
  /** -S, -T, -O as typed. */
  readonly start: string | undefined;
  readonly finish: string | undefined;
  readonly origin: string | undefined;
  /** -t as typed. */
  readonly interval: string | undefined;
  /** -Z value, or 'archive' for -z. */
  readonly zone: string | undefined;
  readonly empty: boolean;
}

/** The parameters of a page address's query (`location.search`). */
export function readPageParams(search: string): PageParams {
  const p = new URLSearchParams(search);
  const one = (k: string): string | undefined => {
    const v = p.get(k);
    return v === null || v.trim() === '' ? undefined : v;
  };
  return {
    archives: p.getAll('archive').filter((a) => a.trim() !== ''),
    hosts: p.getAll('host').filter((h) => h.trim() !== ''),
    view: one('view'),
    start: one('S'),
    finish: one('T'),
    origin: one('O'),
    interval: one('t'),
    zone: one('Z') ?? (p.has('z') ? 'archive' : undefined),
    empty: p.has('empty'),
  };
}

/** Whether the address asks for any time setting. */
export function hasTimeParams(p: PageParams): boolean {
  return p.start !== undefined || p.finish !== undefined || p.origin !== undefined || p.interval !== undefined || p.zone !== undefined;
}

/** A `?view=` value that names a file to fetch rather than a standard view. */
export function isViewUrl(view: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(view) || view.includes('/') || /\.view$/i.test(view);
}
