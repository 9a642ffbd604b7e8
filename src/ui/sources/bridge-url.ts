// Where the pmcd WebSocket bridge is: on the same origin as the app (`pmdash serve` serves
// both) at /pmcd, with the pmcd target as `?target=HOST:PORT` (README.md "Live pmcd: the
// bridge"). The bridge only forwards to the targets it was started with.
export const BRIDGE_PATH = '/pmcd';
export const PMCD_PORT = 44321;

/** "host" → "host:44321"; "host:port" and "host:port@proxy:port" stay as given. */
export function pmcdTarget(host: string): string {
  const h = host.trim();
  return /:\d+(@|$)/.test(h) ? h : `${h}:${PMCD_PORT}`;
}

export function bridgeUrlFor(host: string, base: string = location.href): string {
  const u = new URL(BRIDGE_PATH, base);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.searchParams.set('target', pmcdTarget(host));
  return u.href;
}
