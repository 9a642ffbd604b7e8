// The surface of pcp-core/io for other folders (archive decoders, the worker, the CLI):
// byte sources, file sets, archive name resolution and transparent decompression.
export type { ByteSource } from './byte-source';
export type { FileSet } from './file-set';
export { Cursor } from './cursor';
export { MemorySource } from './memory-source';
export { HandleSource, type RandomAccessHandle } from './handle-source';
export { BlobSource } from './blob-source';
export { HttpSource, HTTP_BLOCK_BYTES, type Fetch, type HttpSourceOptions } from './http-source';
export { ListedFileSet, memoryFileSet, type FileOpener } from './listed-file-set';
export { blobFileSet, pathOfFile, type BlobEntry } from './blob-file-set';
export { HttpFileSet, HTTP_VOLUME_GAP } from './http-file-set';
export { resolveArchive, expandArchiveList, resolveArchiveList, type ArchiveFiles } from './archive-files';
export { parseArchiveFileName, archiveBaseName, type ArchiveFileName, type ArchiveFileKind } from './archive-file-name';
export { COMPRESSION_SUFFIXES, compressionOf, type CompressionSuffix, type Decompressor } from './compression';
export { openStored, decompress } from './open-stored';
export { XzSource, xzBlockCache } from './xz-source';
export { setXzStreamDecoder, xzDecodesOffThread, XzDecoderUnavailable, type XzStreamDecoder } from './xz-block';
export { ZstdSource, zstdFrameCache } from './zstd-source';
export { ByteCache } from './byte-cache';
export { releaseIoCaches } from './release-caches';
