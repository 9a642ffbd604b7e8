// Limits how many upstream connections to one target may be opening at once. pmcd 6.0.3
// listens with a backlog of 5 and, when a burst of connections overflows it, some of them
// are established from the client's point of view yet never get pmcd's hello (observed: 20
// simultaneous connects left 3–8 waiting past 15 s; connects spread out all succeed). The
// bridge therefore lets only a few connections per target be between "connect" and "hello
// received" at a time; the rest wait their turn, which costs milliseconds.
export class ConnectGate {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(
    private readonly perKey: number,
    /** A slot is given back after this long even if its holder never releases it. */
    private readonly holdLimitMs: number,
  ) {}

  /** Resolves with a release function once a slot for `key` is free. */
  enter(key: string): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = (): void => {
        this.active.set(key, (this.active.get(key) ?? 0) + 1);
        let released = false;
        const release = (): void => {
          if (released) return;
          released = true;
          clearTimeout(timer);
          this.active.set(key, (this.active.get(key) ?? 1) - 1);
          this.waiting.get(key)?.shift()?.();
        };
        const timer = setTimeout(release, this.holdLimitMs);
        resolve(release);
      };
      if ((this.active.get(key) ?? 0) < this.perKey) grant();
      else {
        const queue = this.waiting.get(key) ?? [];
        queue.push(grant);
        this.waiting.set(key, queue);
      }
    });
  }

  /** Connections opening or queued for `key` (for tests). */
  load(key: string): { active: number; waiting: number } {
    return { active: this.active.get(key) ?? 0, waiting: this.waiting.get(key)?.length ?? 0 };
  }
}
