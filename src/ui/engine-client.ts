// The only UI module that talks to the engine worker: starts it, wraps it with Comlink and
// turns every rejection into an EngineError object (the worker sends plain objects; anything
// else — a worker crash, a structured-clone failure — is wrapped here so the UI always shows
// a code, a message and a context).
import { proxy, transfer, wrap, type Remote } from 'comlink';
import type { EngineApi } from '../workers/engine-api';
import type { EngineError, ProgressFn } from '../workers/engine-types';

let engine: Remote<EngineApi> | undefined;

export function getEngine(): Remote<EngineApi> {
  engine ??= wrap<EngineApi>(new Worker(new URL('../workers/engine-worker.ts', import.meta.url), { type: 'module' }));
  return engine;
}

/** Wraps a progress callback so the worker can call it across the boundary. */
export function progressCallback(fn: ProgressFn): ProgressFn {
  return proxy(fn);
}

/** A port handed to the worker (moved, not cloned: a MessagePort can only be transferred). */
export function portForEngine(port: MessagePort): MessagePort {
  return transfer(port, [port]);
}

/** Wraps any callback (live frames) so the worker can call it across the boundary. */
export function remoteCallback<A>(fn: (arg: A) => void): (arg: A) => void {
  return proxy(fn);
}

export function isEngineError(v: unknown): v is EngineError {
  return typeof v === 'object' && v !== null && !(v instanceof Error) && typeof (v as { code?: unknown }).code === 'string' && typeof (v as { message?: unknown }).message === 'string';
}

/** Any rejection reason as an EngineError. */
export function asEngineError(e: unknown, context = ''): EngineError {
  if (isEngineError(e)) return { code: e.code, message: e.message, context: e.context || context };
  if (e instanceof Error) return { code: 'EINTERNAL', message: e.message, context };
  return { code: 'EINTERNAL', message: String(e), context };
}

/** "context: message" for display. */
export function describeError(e: EngineError): string {
  return e.context ? `${e.context}: ${e.message}` : e.message;
}
