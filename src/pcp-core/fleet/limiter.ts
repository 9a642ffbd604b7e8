// A counting semaphore: at most `max` holders at once, the rest wait in arrival order. A
// waiter whose signal aborts leaves the queue at once, so a superseded chart request never
// holds a place that a newer one needs.
export class Limiter {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void }> = [];

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency limit must be a positive integer, not ${max}`);
  }

  /** Resolves with a release function once a place is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const release = (): void => {
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.active--;
    };
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(once(release));
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(once(release));
        },
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error('aborted while waiting'));
      };
      if (signal?.aborted) {
        reject(new Error('aborted while waiting'));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Holders now (for tests and diagnostics). */
  get inFlight(): number {
    return this.active;
  }
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      f();
    }
  };
}
