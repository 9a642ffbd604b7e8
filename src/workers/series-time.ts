// Time at the worker boundary: the core's exact timestamps (sec + nsec) become epoch
// milliseconds (a double: sub-microsecond precision for any real date) only here, and back.
import type { Timestamp } from '../pcp-core/types';

/**
 * Epoch ms → timestamp, to the nearest whole microsecond: an epoch-ms double of today holds
 * only about 0.25–0.5 µs, so finer digits would be rounding noise (1120121297718.801 ms
 * would become …718801025 ns), and pmval's origin is a timeval, so a chart's grid then lands
 * on pmval's sample times exactly.
 */
export function msToTimestamp(ms: number): Timestamp {
  const sec = Math.floor(ms / 1000);
  const nsec = Math.round((ms - sec * 1000) * 1e3) * 1000;
  // Rounding may carry a whole second.
  return nsec >= 1e9 ? { sec: sec + 1, nsec: nsec - 1e9 } : { sec, nsec };
}

export function timestampToMs(t: Timestamp): number {
  return t.sec * 1000 + t.nsec / 1e6;
}
