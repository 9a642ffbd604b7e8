// The one place that empties io's shared byte caches (io/README.md budgets) when the client
// is idle: what they hold only makes the next reads cheaper, and after a view is drawn it
// would otherwise stay for as long as the page lives (decoded xz volumes of 100 MB each).
import { decodedChunkCache } from './chunked-source';
import { httpBlockCache } from './http-source';
import { readAheadCache } from './read-ahead-source';

/** Empties the decoded-chunk, read-ahead and HTTP block caches; reads work as before. */
export function releaseIoCaches(): void {
  decodedChunkCache.clear();
  readAheadCache.clear();
  httpBlockCache.clear();
}
