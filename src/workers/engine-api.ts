// The engine's API: what the UI may ask of the worker that owns every context. Plain
// TypeScript over pcp-core, so it also runs in-process (tests, CLI). Coarse and bulk by
// design: whole windows of series per call, never one call per sample.

export class EngineApi {
  /** Answers with the engine's identity; the UI's first round trip. */
  hello(): Promise<string> {
    return Promise.resolve('pmdash engine');
  }
}
