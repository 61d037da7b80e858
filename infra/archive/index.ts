export {
  ArchiveSink,
  type ArchiveSinkOptions,
  type FileSinkOptions,
  fileSink,
  type S3SinkOptions,
  s3Sink,
} from './archiveSink.js';
export {
  type ArchiverBindingOptions,
  type ArchiveSinkConfig,
  archiverBinding,
  archiveSinkOf,
} from './binding.js';
export { addArchiveCommand, DEFAULT_ARCHIVE_DIR } from './cli.js';
export { FileStore } from './fileStore.js';
export { decodeJsonLines, encodeJsonLines, jsonLinesOf } from './jsonLines.js';
export {
  type ArchiveFormat,
  dayOf,
  exportIdOf,
  manifestKeysOf,
  type ObjectName,
  objectKeyOf,
  parseObjectKey,
  partitionOf,
} from './layout.js';
export { type ManifestFileEntry, type ManifestSummary, parseManifestFiles } from './manifests.js';
export { type ObjectStore, ObjectStoreError, type StoredObject } from './objectStore.js';
export { columnsOf, decodeParquet, encodeParquet, isExactDouble } from './parquet.js';
export {
  type ArchiveEntry,
  type ArchiveListing,
  ArchiveReadError,
  listArchive,
  readArchive,
  readObjectItems,
} from './reader.js';
export { RestoreError, type RestoreOptions, type RestoreResult, restoreItems } from './restore.js';
export { createS3Client, S3Store, type S3StoreOptions } from './s3Store.js';
