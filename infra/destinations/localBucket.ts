import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type {
  FailureDestination,
  FailureNotice,
  InvocationRecord,
} from '../../streams/mapping/failureRecord.js';

/**
 * What an S3 on-failure destination stores: the invocation record plus the event
 * (docs/streams-and-lambda.md §2.5.4).
 */
export type S3FailureDocument = InvocationRecord & { readonly payload: string };

/**
 * The S3 object key of a failure (docs/streams-and-lambda.md §2.5.4):
 * `aws/lambda/<ESM-UUID>/<shardID>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<Random UUID>`, in UTC from the
 * record's timestamp.
 */
export function failureObjectKey(
  mappingUuid: string,
  shardId: string,
  timestamp: string,
  random?: string,
): string {
  const iso = new Date(timestamp).toISOString();
  const [year, month, day] = iso.slice(0, 10).split('-') as [string, string, string];
  const time = iso.slice(11, 19).replaceAll(':', '.');
  return `aws/lambda/${mappingUuid}/${shardId}/${year}/${month}/${day}/${year}-${month}-${day}T${time}-${random ?? randomUUID()}`;
}

/**
 * A local S3 bucket receiving on-failure records: one JSON object per discarded batch, the
 * invocation record with `payload`, the original invocation event as an escaped JSON string
 * (docs/streams-and-lambda.md §2.5.4, §6.6: the docs' form). Kept in memory and, with a `directory`, written
 * as files under the object key.
 *
 * @example
 * ```ts
 * const bucket = new LocalBucket('arn:aws:s3:::failures', { directory: '.eddy/destinations/s3/failures' });
 * JSON.parse(bucket.documents()[0]!.payload).Records.length;
 * ```
 */
export class LocalBucket implements FailureDestination {
  private readonly objects = new Map<string, string>();

  constructor(
    readonly arn: string,
    private readonly options: { readonly directory?: string } = {},
  ) {}

  get bucketName(): string {
    return this.arn.slice(this.arn.lastIndexOf(':') + 1);
  }

  async send(notice: FailureNotice): Promise<void> {
    const key = failureObjectKey(notice.mappingUuid, notice.shardId, notice.record.timestamp);
    await this.put(key, JSON.stringify({ ...notice.record, payload: JSON.stringify(notice.payload()) }));
  }

  /** Stores one object (an asynchronous invocation's record, under Lambda's key for those). */
  async put(key: string, body: string): Promise<void> {
    this.objects.set(key, body);
    const directory = this.options.directory;
    if (directory === undefined) return;
    const path = join(directory, ...key.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body);
  }

  /** Empties the bucket, and its directory when it has one (the test kit's `reset`). */
  clear(): void {
    this.objects.clear();
    if (this.options.directory !== undefined)
      rmSync(this.options.directory, { recursive: true, force: true });
  }

  /** Object keys, in the order written. */
  keys(): string[] {
    return [...this.objects.keys()];
  }

  /** The object's body text. */
  get(key: string): string | undefined {
    return this.objects.get(key);
  }

  /** Every stored document, parsed. */
  documents(): S3FailureDocument[] {
    return [...this.objects.values()].map((body) => JSON.parse(body) as S3FailureDocument);
  }
}
