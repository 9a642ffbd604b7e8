// Time at the worker boundary: the core's exact timestamps (sec + nsec) become epoch
// milliseconds (a double: sub-microsecond precision for any real date) only here, and back.
import type { Timestamp } from '../pcp-core/types';

export function msToTimestamp(ms: number): Timestamp {
  const sec = Math.floor(ms / 1000);
  const nsec = Math.round((ms - sec * 1000) * 1e6);
  // Rounding may carry a whole second.
  return nsec >= 1e9 ? { sec: sec + 1, nsec: nsec - 1e9 } : { sec, nsec };
}

export function timestampToMs(t: Timestamp): number {
  return t.sec * 1000 + t.nsec / 1e6;
}
