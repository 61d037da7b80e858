import {
  BatchWriteItemCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { Image } from '../../functions/shared/ports.js';

/**
 * Re-imports archived items into a table (after an expiry mistake, say) with BatchWriteItem, 25
 * puts per request (the API's limit), retrying `UnprocessedItems` with capped exponential
 * backoff and full jitter, as AWS advises for batch operations
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html,
 * https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
 *
 * Items are written in archive order; a key seen twice (an item that expired, was written again
 * and expired again) ends with its later version, and never appears twice in one request
 * (BatchWriteItem rejects duplicate keys).
 */
export interface RestoreOptions {
  /** Attributes removed from each item before it is written, e.g. the TTL attribute, so a
   * restored item is not expired again at the next TTL run. */
  readonly dropAttributes?: readonly string[];
  /** Attempts per request, the first included, before giving up (default 10). */
  readonly maxAttempts?: number;
  /** First backoff in ms (default 50), doubled per attempt up to `maxDelayMs` (default 5,000). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Called after each request with the number of items it wrote. */
  readonly onWritten?: (count: number) => void;
}

export interface RestoreResult {
  readonly written: number;
  readonly requests: number;
  /** Requests that left UnprocessedItems and were retried. */
  readonly retries: number;
}

export class RestoreError extends Error {
  override readonly name = 'RestoreError';
}

const BATCH_LIMIT = 25;

/** The key attribute names of a table (DescribeTable). */
export async function keyNamesOf(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return (Table?.KeySchema ?? []).map((element) => element.AttributeName!);
}

export async function restoreItems(
  client: DynamoDBClient,
  tableName: string,
  items: AsyncIterable<Image> | Iterable<Image>,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const keyNames = await keyNamesOf(client, tableName);
  const drop = new Set(options.dropAttributes ?? []);
  for (const name of keyNames) {
    if (drop.has(name)) throw new RestoreError(`cannot drop key attribute ${name} of ${tableName}`);
  }
  const maxAttempts = options.maxAttempts ?? 10;
  const baseDelay = options.baseDelayMs ?? 50;
  const maxDelay = options.maxDelayMs ?? 5_000;
  const result = { written: 0, requests: 0, retries: 0 };
  let chunk: WriteRequest[] = [];
  let keysInChunk = new Set<string>();

  const flush = async () => {
    let pending = chunk;
    chunk = [];
    keysInChunk = new Set();
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > maxAttempts)
        throw new RestoreError(
          `${pending.length} items of ${tableName} still unprocessed after ${maxAttempts} attempts`,
        );
      if (attempt > 1) {
        result.retries++;
        const ceiling = Math.min(maxDelay, baseDelay * 2 ** (attempt - 2));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
      }
      result.requests++;
      const output = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      const unprocessed = output.UnprocessedItems?.[tableName] ?? [];
      const written = pending.length - unprocessed.length;
      result.written += written;
      if (written > 0) options.onWritten?.(written);
      pending = unprocessed;
    }
  };

  for await (const item of items) {
    const copy: Image = {};
    for (const name of Object.keys(item)) {
      if (drop.has(name)) continue;
      if (name === '__proto__') Object.defineProperty(copy, name, { value: item[name], enumerable: true });
      else copy[name] = item[name]!;
    }
    const key = JSON.stringify(keyNames.map((name) => copy[name] ?? null));
    if (keysInChunk.has(key)) await flush();
    chunk.push({ PutRequest: { Item: copy as never } });
    keysInChunk.add(key);
    if (chunk.length === BATCH_LIMIT) await flush();
  }
  await flush();
  return result;
}
