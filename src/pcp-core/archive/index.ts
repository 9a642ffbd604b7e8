// The archive reader's surface for other folders (replay, context, CLI, worker). Open with
// openArchiveSet (a FileSet and a pmNewContext archive name) or ArchiveSet.open (resolved
// files); then query `set.metadata`. Data records are read by the replay cursor
// (replay/log-cursor.ts, through context/archive-replay-source.ts), which checks each with
// checkDataRecord; decodeValueSets decodes a checked record's value sets as stored.
export { openArchiveSet, type OpenArchiveSetOptions } from './open-archive-set';
export { ArchiveSet, type ArchiveSetOptions } from './archive-set';
export { Archive, type ArchiveOpenOptions, type OpenStoredFile } from './archive';
export type { ArchiveLabel } from './label';
export { ArchiveMetadata } from './metadata';
export type { IndomObservation, InstanceLifetime } from './indom-history';
export type { StoredLabelSet } from './meta-records';
export { checkDataRecord, decodeValueSets, type ArchiveValueSet, type RecordShape } from './data-record';
export { TemporalIndex } from './temporal-index';
export { logFormat, type LogFormat, type LogVersion } from './log-format';
