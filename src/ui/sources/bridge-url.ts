// Where the pmcd WebSocket bridge is: on the same origin as the app (`pmdash serve` serves
// both), at the path the bridge documents in README.md, with the target host as a parameter.
// The bridge only forwards to the pmcd targets it is configured for.
export const BRIDGE_PATH = '/pmcd';

export function bridgeUrlFor(host: string, base: string = location.href): string {
  const u = new URL(BRIDGE_PATH, base);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.searchParams.set('host', host);
  return u.href;
}
