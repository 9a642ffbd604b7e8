// Turns a SourceSpec into a Context: dropped files and URLs become archive contexts, a host
// becomes a live context through the bridge. The one place that knows which pcp-core modules
// build contexts, so the facade (engine-api.ts) stays independent of them.
import type { Context } from '../pcp-core/context/context';
import { PM_ERR_NYI, PmError } from '../pcp-core/errors';
import type { ProgressFn, SourceSpec } from './engine-types';

/** An opened source: its context plus what the facade reports about it. */
export interface OpenedSource {
  readonly ctx: Context;
  readonly name: string;
  /** Archive end in epoch ms (pmGetArchiveEnd); NaN for live. */
  readonly endMs: number;
  /** Typical sampling interval, 0 when unknown. */
  readonly intervalMs: number;
  readonly warnings: readonly PmError[];
}

export function describeSpec(spec: SourceSpec): string {
  switch (spec.kind) {
    case 'files':
      return spec.files.length === 1 ? (spec.files[0]?.path ?? 'files') : `${spec.files.length} files`;
    case 'url':
      return spec.url;
    case 'live':
      return spec.host;
  }
}

export function openSource(spec: SourceSpec, _progress: ProgressFn): Promise<OpenedSource> {
  // The archive reader (issue 3/4) and the live context (issue 6) plug in here as they land.
  return Promise.reject(new PmError(PM_ERR_NYI, `opening ${spec.kind} sources is not available in this build yet`, describeSpec(spec)));
}
