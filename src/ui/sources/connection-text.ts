// How a live source's connection state reads, in the source card and in the notification area
// alike. The core counts the attempts made so far; a user wants to know which one comes next.
import type { ConnectionStatus } from '../../workers/engine-types';

/** "reconnecting (attempt 2 in 5 s)", or just the state when no retry is scheduled. */
export function connectionText(c: ConnectionStatus): string {
  if (c.state !== 'reconnecting' || c.retryInMs === undefined) return c.state;
  return `reconnecting (attempt ${(c.attempts ?? 0) + 1} in ${Math.ceil(c.retryInMs / 1000)} s)`;
}
