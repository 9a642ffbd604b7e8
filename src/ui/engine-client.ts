// The only UI module that talks to the engine worker: starts it and wraps it with Comlink.
import { wrap, type Remote } from 'comlink';
import type { EngineApi } from '../workers/engine-api';

let engine: Remote<EngineApi> | undefined;

export function getEngine(): Remote<EngineApi> {
  engine ??= wrap<EngineApi>(new Worker(new URL('../workers/engine-worker.ts', import.meta.url), { type: 'module' }));
  return engine;
}
