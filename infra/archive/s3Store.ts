import { createRequire } from 'node:module';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client, StorageClass } from '@aws-sdk/client-s3';
import {
  type ObjectStore,
  ObjectStoreError,
  type ObjectWrite,
  type PutOptions,
  type StoredObject,
} from './objectStore.js';

// `@aws-sdk/client-s3` is loaded when the first S3 store is made (loading it costs `eddy serve`
// ~0.1 s of CPU, bench/startup.ts, and only an S3 sink needs it). The SDK's packages are CommonJS
// in Node (their `main`; no `exports` map), so `require` gives the module an `import` would.
const require = createRequire(import.meta.url);
let loaded: typeof S3Sdk | undefined;
const s3 = () => (loaded ??= require('@aws-sdk/client-s3') as typeof S3Sdk);

/**
 * S3, or any S3-compatible server, through `@aws-sdk/client-s3`. A single PutObject replaces an
 * object whole or not at all (S3 has no partial objects: "Amazon S3 never adds partial objects",
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html), so `put` is atomic.
 */
export interface S3StoreOptions {
  readonly bucket: string;
  /** Endpoint URL of an S3-compatible server (e.g. `http://127.0.0.1:4568`); default: AWS. */
  readonly endpoint?: string;
  /** Default `AWS_REGION`, else `us-east-1`. */
  readonly region?: string;
  /** Path-style URLs (`endpoint/bucket/key`): default true when an endpoint is given. */
  readonly forcePathStyle?: boolean;
  /** Default: the SDK's credential chain (environment, profile, ...). */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /**
   * Flexible checksums (CRC32 trailers): `WHEN_REQUIRED` (default) sends them only where an
   * operation requires one, which S3-compatible servers that predate them (s3rver, older MinIO)
   * accept; `WHEN_SUPPORTED` is the SDK's default against AWS.
   */
  readonly checksums?: 'WHEN_REQUIRED' | 'WHEN_SUPPORTED';
  /** A client to use instead of building one from the options above. */
  readonly client?: S3Client;
  /**
   * Without `credentials`: a reason not to sign with the SDK's credential chain right now, or
   * undefined. The local stack answers while the environment holds the placeholder keys it sets
   * for handlers, which no S3 server accepts: every request then fails at once with this reason.
   */
  readonly refuseDefaultCredentials?: () => string | undefined;
}

export class S3Store implements ObjectStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly location: string;

  private readonly refuse: (() => string | undefined) | undefined;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.location = `s3://${options.bucket}`;
    this.client = options.client ?? createS3Client(options);
    this.refuse =
      options.client === undefined && options.credentials === undefined
        ? options.refuseDefaultCredentials
        : undefined;
  }

  /** Throws the reason the credentials must not be used, if any (`refuseDefaultCredentials`). */
  private checkCredentials(action: string, key: string): void {
    const reason = this.refuse?.();
    if (reason !== undefined)
      throw new ObjectStoreError(`could not ${action} ${key} in ${this.location}: ${reason}`);
  }

  async put(key: string, body: Uint8Array, options: PutOptions): Promise<{ etag: string }> {
    this.checkCredentials('write', key);
    try {
      const output = await this.client.send(
        new (s3().PutObjectCommand)({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: options.contentType,
          ...(options.storageClass ? { StorageClass: options.storageClass as StorageClass } : {}),
        }),
      );
      return { etag: (output.ETag ?? '').replace(/"/g, '') };
    } catch (error) {
      throw this.failure('write', key, error);
    }
  }

  async putAll(objects: readonly ObjectWrite[]): Promise<void> {
    // One after the other: S3 makes each visible when its PutObject succeeds, so order is kept.
    for (const object of objects) await this.put(object.key, object.body, object.options);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    this.checkCredentials('read', key);
    try {
      const output = await this.client.send(new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: key }));
      return (await output.Body?.transformToByteArray()) ?? new Uint8Array();
    } catch (error) {
      const name = (error as { name?: string }).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (name === 'NoSuchKey' || status === 404) return undefined;
      throw this.failure('read', key, error);
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    this.checkCredentials('list', prefix);
    const objects: StoredObject[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new (s3().ListObjectsV2Command)({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const entry of page.Contents ?? []) {
          if (entry.Key === undefined) continue;
          objects.push({
            key: entry.Key,
            size: entry.Size ?? 0,
            lastModified: entry.LastModified ?? new Date(0),
            ...(entry.StorageClass ? { storageClass: entry.StorageClass } : {}),
          });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    } catch (error) {
      throw this.failure('list', prefix, error);
    }
    return objects;
  }

  async delete(keys: readonly string[]): Promise<void> {
    // One DeleteObject per key: deletes only happen for superseded attempts, which are rare, and
    // DeleteObjects needs a Content-MD5 some servers check differently.
    for (const key of keys) {
      this.checkCredentials('delete', key);
      try {
        await this.client.send(new (s3().DeleteObjectCommand)({ Bucket: this.bucket, Key: key }));
      } catch (error) {
        throw this.failure('delete', key, error);
      }
    }
  }

  private failure(action: string, key: string, error: unknown): ObjectStoreError {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new ObjectStoreError(`could not ${action} ${key} in ${this.location}: ${message}`, {
      cause: error,
    });
  }
}

/** An S3 client for the options (region, endpoint, path-style, credentials, checksums). */
export function createS3Client(
  options: Omit<S3StoreOptions, 'bucket' | 'client' | 'refuseDefaultCredentials'>,
): S3Client {
  const checksums = options.checksums ?? 'WHEN_REQUIRED';
  return new (s3().S3Client)({
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    requestChecksumCalculation: checksums,
    responseChecksumValidation: checksums,
    // A stopped server fails fast; the mapping's retries are the retry policy.
    maxAttempts: 2,
  });
}
