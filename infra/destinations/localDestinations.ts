import { join } from 'node:path';
import type { DestinationResolver, FailureDestination } from '../../streams/mapping/failureRecord.js';
import { LocalBucket } from './localBucket.js';
import { LocalQueue } from './localQueue.js';

/**
 * The on-failure destinations of a local eddy, made on first use from their ARNs
 * (docs/streams-and-lambda.md §2.1.12): SQS queues and SNS topics as `LocalQueue`s, S3 buckets as
 * `LocalBucket`s. With a `directory`, queues persist as `<directory>/sqs/<name>.jsonl` (`sns/` for topics)
 * and buckets write their objects under `<directory>/s3/<bucket>/`.
 *
 * @example
 * ```ts
 * const destinations = new LocalDestinations({ directory: '.eddy/destinations' });
 * new MappingManager({ changeLog, functions, destinations });
 * destinations.queue('arn:aws:sqs:us-east-1:000000000000:dlq').records();
 * ```
 */
export class LocalDestinations implements DestinationResolver {
  private readonly queues = new Map<string, LocalQueue>();
  private readonly buckets = new Map<string, LocalBucket>();

  constructor(private readonly options: { readonly directory?: string } = {}) {}

  resolve(arn: string): FailureDestination | undefined {
    const service = /^arn:aws[a-z-]*:(sqs|sns|s3):/.exec(arn)?.[1];
    if (service === 's3') return this.bucket(arn);
    if (service === 'sqs' || service === 'sns') return this.queue(arn);
    return undefined;
  }

  /** Empties every queue, topic and bucket (the test kit's `reset`). */
  clear(): void {
    for (const queue of this.queues.values()) queue.clear();
    for (const bucket of this.buckets.values()) bucket.clear();
  }

  /** The queue (or topic) of an `arn:aws:sqs:…` / `arn:aws:sns:…` ARN. */
  queue(arn: string): LocalQueue {
    let queue = this.queues.get(arn);
    if (queue === undefined) {
      const directory = this.options.directory;
      const service = arn.split(':')[2]!;
      const name = arn.slice(arn.lastIndexOf(':') + 1);
      queue = new LocalQueue(
        arn,
        directory === undefined ? {} : { file: join(directory, service, `${name}.jsonl`) },
      );
      this.queues.set(arn, queue);
    }
    return queue;
  }

  /** The bucket of an `arn:aws:s3:::<bucket>` ARN. */
  bucket(arn: string): LocalBucket {
    let bucket = this.buckets.get(arn);
    if (bucket === undefined) {
      const directory = this.options.directory;
      const name = arn.slice(arn.lastIndexOf(':') + 1);
      bucket = new LocalBucket(
        arn,
        directory === undefined ? {} : { directory: join(directory, 's3', name) },
      );
      this.buckets.set(arn, bucket);
    }
    return bucket;
  }
}
