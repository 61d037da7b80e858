/**
 * Where archive objects are kept: a bucket-like key space. Two implementations: a directory
 * (`FileStore`, keys are relative paths) and S3 or any S3-compatible server (`S3Store`).
 */

export interface StoredObject {
  readonly key: string;
  readonly size: number;
  readonly lastModified: Date;
  /** Storage class when the store reports one (S3). */
  readonly storageClass?: string;
}

export interface PutOptions {
  readonly contentType: string;
  /** S3 storage class for this object (e.g. GLACIER); directories ignore it. */
  readonly storageClass?: string;
}

/** One object of a `putAll`. */
export interface ObjectWrite {
  readonly key: string;
  readonly body: Uint8Array;
  readonly options: PutOptions;
}

export interface ObjectStore {
  /** For messages: `file:///…` or `s3://bucket`. */
  readonly location: string;
  /** The bucket name for export manifests (`s3Bucket`), `null` for a directory. */
  readonly bucket: string | null;
  /**
   * Writes an object whole or not at all: a reader (or a crash) never sees half an object. An
   * existing object with that key is replaced. Answers the object's ETag (hex MD5 for a
   * single-part upload, as S3).
   */
  put(key: string, body: Uint8Array, options: PutOptions): Promise<{ etag: string }>;
  /**
   * Writes several objects, each whole or not at all, becoming visible in the order given (a
   * reader that sees one sees those before it). Stores may overlap the work.
   */
  putAll(objects: readonly ObjectWrite[]): Promise<void>;
  /** The object's bytes, `undefined` when there is no such object. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Objects whose key starts with `prefix` (a plain string prefix, as S3's), in key order. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Deletes objects; a missing one is not an error. */
  delete(keys: readonly string[]): Promise<void>;
}

/** A store operation that failed, with the store's own error as `cause`. */
export class ObjectStoreError extends Error {
  override readonly name = 'ObjectStoreError';
}
