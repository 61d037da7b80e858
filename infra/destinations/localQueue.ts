import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type {
  FailureDestination,
  FailureNotice,
  InvocationRecord,
} from '../../streams/mapping/failureRecord.js';

/**
 * One message of a local queue or topic: the body is the invocation record's JSON
 * (docs/streams-and-lambda.md §2.5.4).
 */
export interface QueueMessage {
  readonly messageId: string;
  readonly body: string;
}

/**
 * A local SQS queue (or SNS topic) receiving on-failure invocation records: for SQS the message
 * body is the record's JSON, for SNS the notification's `Message` (docs/streams-and-lambda.md §2.5.4).
 * Messages stay in memory for inspection and, with a `file`, are appended to it as JSON lines (one record per
 * line, the exact AWS shape), which a restarted eddy reads back.
 *
 * @example
 * ```ts
 * const dlq = new LocalQueue('arn:aws:sqs:us-east-1:000000000000:dlq', { file: '.eddy/destinations/sqs/dlq.jsonl' });
 * dlq.records()[0]?.requestContext.condition; // 'RetryAttemptsExhausted'
 * ```
 */
export class LocalQueue implements FailureDestination {
  private readonly queue: QueueMessage[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly arn: string,
    private readonly options: { readonly file?: string } = {},
  ) {
    const file = options.file;
    if (file !== undefined && existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.trim() !== '') this.queue.push({ messageId: randomUUID(), body: line });
      }
    }
  }

  async send(notice: FailureNotice): Promise<void> {
    await this.enqueue(JSON.stringify(notice.record));
  }

  /**
   * Adds one message with this body (an asynchronous invocation's record, or the event itself
   * for a dead-letter queue).
   */
  async enqueue(body: string): Promise<void> {
    this.queue.push({ messageId: randomUUID(), body });
    const file = this.options.file;
    if (file === undefined) return;
    // Appends in send order, one line each.
    const write = this.writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${body}\n`);
    });
    this.writing = write.catch(() => {});
    await write;
  }

  /** The messages received so far, oldest first. */
  messages(): readonly QueueMessage[] {
    return this.queue;
  }

  /** The invocation records received so far (parsed message bodies). */
  records(): InvocationRecord[] {
    return this.queue.map((message) => JSON.parse(message.body) as InvocationRecord);
  }

  /** Empties the queue, and its file when it has one (the test kit's `reset`). */
  clear(): void {
    this.queue.length = 0;
    if (this.options.file !== undefined) rmSync(this.options.file, { force: true });
  }

  /** Takes up to `max` messages off the queue (a ReceiveMessage + DeleteMessage). */
  receive(max = 10): QueueMessage[] {
    return this.queue.splice(0, max);
  }
}
