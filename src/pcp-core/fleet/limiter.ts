// A counting semaphore: at most `max` holders at once, the rest wait in arrival order. A
// waiter whose signal aborts leaves the queue at once, so a superseded chart request never
// holds a place that a newer one needs. One chart queues a waiter per host on the same
// signal, so the limiter listens to each signal once, not once per waiter.

interface Waiter {
  readonly signal: AbortSignal | undefined;
  grant(): void;
  cancel(): void;
}

export class Limiter {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  /** Waiters per signal, and the one abort listener each signal carries while it has any. */
  private readonly bySignal = new Map<AbortSignal, { waiters: Set<Waiter>; onAbort: () => void }>();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency limit must be a positive integer, not ${max}`);
  }

  /** Resolves with a release function once a place is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(once(() => this.release()));
    }
    if (signal?.aborted) return Promise.reject(new Error('aborted while waiting'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        grant: () => resolve(once(() => this.release())),
        cancel: () => reject(new Error('aborted while waiting')),
      };
      this.waiting.push(waiter);
      if (signal) this.watch(signal).add(waiter);
    });
  }

  /** Holders now (for tests and diagnostics). */
  get inFlight(): number {
    return this.active;
  }

  /** Signals with waiters (each has exactly one abort listener), for tests. */
  get watchedSignals(): number {
    return this.bySignal.size;
  }

  private release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.active--;
      return;
    }
    if (next.signal) this.unwatch(next.signal, next);
    next.grant();
  }

  private watch(signal: AbortSignal): Set<Waiter> {
    const known = this.bySignal.get(signal);
    if (known) return known.waiters;
    const waiters = new Set<Waiter>();
    const onAbort = (): void => {
      this.bySignal.delete(signal);
      for (const w of waiters) {
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
        w.cancel();
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.bySignal.set(signal, { waiters, onAbort });
    return waiters;
  }

  private unwatch(signal: AbortSignal, waiter: Waiter): void {
    const known = this.bySignal.get(signal);
    if (!known) return;
    known.waiters.delete(waiter);
    if (known.waiters.size === 0) {
      signal.removeEventListener('abort', known.onAbort);
      this.bySignal.delete(signal);
    }
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
