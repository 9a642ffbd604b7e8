// The archive reader's surface for other folders (replay, context, CLI, worker). Open with
// openArchiveSet (a FileSet and a pmNewContext archive name) or ArchiveSet.open (resolved
// files); then query `set.metadata`, read records with `set.cursor()` (libpcp's positioning
// and reading rules) or ArchiveFetcher (pmFetchArchive from the start), and ask `set.end()`.
export { openArchiveSet, type OpenArchiveSetOptions } from './open-archive-set';
export { ArchiveSet, type ArchiveSetOptions } from './archive-set';
export { Archive, type ArchiveOpenOptions, type OpenStoredFile } from './archive';
export type { ArchiveLabel } from './label';
export { ArchiveMetadata } from './metadata';
export type { IndomObservation, InstanceLifetime } from './indom-history';
export type { StoredLabelSet } from './meta-records';
export { RecordCursor, type CursorPosition, type RawRecord, type ReadMode, type RecordStamp } from './record-cursor';
export { ArchiveFetcher } from './fetch-archive';
export { decodeValues, type ArchiveRecord, type ArchiveValueSet, type RecordContext } from './volume-record';
export { TemporalIndex } from './temporal-index';
export type { VolumeReader, RecordFrame } from './volume-reader';
export { logFormat, type LogFormat, type LogVersion } from './log-format';
export { compareTimestamps, timestampSub, formatIsoUtc, timestampToNs, timestampFromNs } from './timestamps';
