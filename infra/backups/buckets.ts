import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { FileStore } from '../archive/fileStore.js';
import type { ObjectStore } from '../archive/objectStore.js';
import { createS3Client, S3Store, type S3StoreOptions } from '../archive/s3Store.js';

/**
 * Where ExportTableToPointInTime writes and ImportTable reads (docs/backups.md §6): an S3
 * endpoint (S3 itself or an S3-compatible server), with credentials as the archive sink takes
 * them, or a local folder in which each bucket is a sub-folder (`<directory>/<bucket>/<key>`).
 * A bucket must exist, as on S3: a missing one fails the export or import with
 * `S3NoSuchBucket` (for a folder: create `<directory>/<bucket>` first).
 */
export type BucketsOptions =
  | { readonly directory: string }
  | { readonly s3: Omit<S3StoreOptions, 'bucket' | 'client' | 'refuseDefaultCredentials'> };

export interface Buckets {
  /** `file:///…` or the endpoint, for messages. */
  readonly location: string;
  store(bucket: string): ObjectStore;
  exists(bucket: string): Promise<boolean>;
}

export function bucketsOf(options: BucketsOptions): Buckets {
  if ('directory' in options) {
    const root = resolve(options.directory);
    return {
      location: `file://${root}`,
      store: (bucket) => Object.assign(new FileStore(join(root, bucket)), { bucket }) as ObjectStore,
      exists: async (bucket) =>
        (await stat(join(root, bucket)).catch(() => undefined))?.isDirectory() === true,
    };
  }
  let client: S3Client | undefined;
  const clientOf = () => (client ??= createS3Client(options.s3));
  return {
    location: options.s3.endpoint ?? 's3',
    store: (bucket) => new S3Store({ bucket, client: clientOf() }),
    async exists(bucket) {
      const sdk = require('@aws-sdk/client-s3') as typeof S3Sdk;
      try {
        await clientOf().send(new sdk.HeadBucketCommand({ Bucket: bucket }));
        return true;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404 || (error as { name?: string }).name === 'NotFound') return false;
        throw error;
      }
    },
  };
}

const require = createRequire(import.meta.url);
