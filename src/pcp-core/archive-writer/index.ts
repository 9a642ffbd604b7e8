// The archive writer's surface for other folders: the writer itself, the window extract the
// UI's "export as archive" uses, and the error both throw.
export { ArchiveWriter, type ArchiveImage } from './archive-writer';
export { extractWindow, type ExtractOptions } from './extract-window';
export { ArchiveWriteError, type IndomEntry, type LabelSetToWrite } from './encode-meta';
export type { LabelFields } from './encode-label';
export type { ValueSetToWrite } from './encode-record';
export { ResultRecorder, type RecorderOptions } from './result-recorder';
