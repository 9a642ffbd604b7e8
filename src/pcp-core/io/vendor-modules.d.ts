// Declarations for the untyped decompression libraries pcp-core loads (the shapes used here
// only; each module's loader checks at run time that the export is there).

declare module 'seek-bzip' {
  const Bunzip: unknown;
  export default Bunzip;
}
