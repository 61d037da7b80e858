import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  type ShardIteratorType,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { lambdaRecordOf } from './lambdaRecord.js';
import { mergeShards, type ShardRecords } from './mergeShards.js';

/** Records held back for ordering at most (see `run`). */
const MAX_PENDING = 1000;
const MAX_PENDING_MS = 1000;

/** Where a recording starts: the oldest retained record, or just after the newest. */
export type RecordingStart = 'trim-horizon' | 'latest';

export interface RecordStreamOptions {
  readonly client: DynamoDBStreamsClient;
  readonly streamArn: string;
  readonly from: RecordingStart;
  /** Keep polling for new records until `limit`, or until `signal` aborts. */
  readonly follow: boolean;
  /** Stop after this many records. */
  readonly limit?: number;
  /** Stops the recording (SIGINT, `--duration`); records already read are still delivered. */
  readonly signal?: AbortSignal;
  /**
   * Pause between polling rounds when following (default 250 ms: Lambda's 4 polls a second,
   * docs/streams-and-lambda.md §2.1.16).
   */
  readonly pollIntervalMs?: number;
  /** Receives the records in recording order, one polling round at a time. */
  readonly onRecords: (records: readonly DynamoDBRecord[]) => void;
  /** Records were lost (trimmed before they were read) or a shard vanished. */
  readonly onWarning?: (message: string) => void;
}

export interface RecordingResult {
  readonly count: number;
  /** `end`: every shard read to its current end; `limit`; `stopped`: the signal aborted. */
  readonly stoppedBy: 'end' | 'limit' | 'stopped';
  /** Shards the recording read from. */
  readonly shards: number;
}

interface ShardState {
  readonly shardId: string;
  readonly parentShardId: string | undefined;
  /** Open when the recording started (a LATEST recording starts these at their end). */
  readonly openAtStart: boolean;
  iterator: string | undefined;
  lastSequenceNumber: string | undefined;
  ended: boolean;
  read: boolean;
}

/**
 * Records a DynamoDB stream through the Streams API, as a Lambda event source mapping reads it:
 * DescribeStream for the shards and their lineage (paged, docs/streams-and-lambda.md §1.4.9), parents before
 * children (docs/streams-and-lambda.md §1.4.3), GetShardIterator per shard, then GetRecords until the shard
 * is caught up or closed (no NextShardIterator, docs/streams-and-lambda.md §1.5.7). Each polling round's
 * records are merged into one recording order (`mergeShards`) and handed to `onRecords` as Lambda records
 * (`lambdaRecordOf`).
 *
 * Without `follow` the recording stops after a round that found nothing new: every shard was read
 * until GetRecords answered an empty page twice. DynamoDB may answer empty pages before a shard's
 * end ("it might take multiple calls to get to a portion of the shard that contains stream
 * records", GetRecords reference), so on AWS `follow` with a duration is the way to be sure.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * await recordStream({ client, streamArn, from: 'trim-horizon', follow: false,
 *   onRecords: (records) => lines.push(...records.map((record) => JSON.stringify(record))) });
 * ```
 */
export async function recordStream(options: RecordStreamOptions): Promise<RecordingResult> {
  return new StreamRecorder(options).run();
}

class StreamRecorder {
  private readonly shards = new Map<string, ShardState>();
  /** Records read and not handed over yet, by shard. */
  private readonly pending = new Map<string, DynamoDBRecord[]>();
  private pendingSince: number | undefined;
  private count = 0;
  private streamDisabled = false;
  private started = false;

  constructor(private readonly options: RecordStreamOptions) {}

  private get stopped(): boolean {
    return this.options.signal?.aborted === true;
  }

  private get remaining(): number {
    return (this.options.limit ?? Number.POSITIVE_INFINITY) - this.count;
  }

  private get pendingCount(): number {
    let count = 0;
    for (const records of this.pending.values()) count += records.length;
    return count;
  }

  async run(): Promise<RecordingResult> {
    const result = (stoppedBy: RecordingResult['stoppedBy']): RecordingResult => ({
      count: this.count,
      stoppedBy,
      shards: [...this.shards.values()].filter((shard) => shard.read).length,
    });
    try {
      await this.discover();
      this.started = true;
      for (;;) {
        const found = await this.round();
        // Records are handed over once a round finds nothing new, so that a burst of writes read
        // over several rounds still comes out in one order; a steady flow goes at least every
        // second or 1000 records.
        const due =
          !found ||
          this.stopped ||
          this.pendingCount >= Math.min(MAX_PENDING, this.remaining) ||
          Date.now() - (this.pendingSince ?? Date.now()) >= MAX_PENDING_MS;
        if (due) this.handOver();
        if (this.remaining <= 0) return result('limit');
        if (this.stopped) return result('stopped');
        const allEnded = this.shards.size > 0 && [...this.shards.values()].every((shard) => shard.ended);
        if (!this.options.follow && !found) return result('end');
        if (allEnded && this.streamDisabled && !found) return result('end');
        // Without `follow`, the round that confirms the ends runs at once.
        if (this.options.follow && !found)
          await pause(this.options.pollIntervalMs ?? 250, this.options.signal);
        if (this.stopped) {
          this.handOver();
          return result('stopped');
        }
      }
    } catch (error) {
      if (this.stopped && isAbort(error)) {
        this.handOver();
        return result('stopped');
      }
      throw error;
    }
  }

  /** Merges what was read into recording order and hands it to `onRecords` (up to the limit). */
  private handOver(): void {
    const shards: ShardRecords[] = [...this.pending].map(([shardId, records]) => ({
      shardId,
      parentShardId: this.shards.get(shardId)?.parentShardId,
      records,
    }));
    this.pending.clear();
    this.pendingSince = undefined;
    const merged = mergeShards(shards).slice(0, Math.max(0, this.remaining));
    if (merged.length === 0) return;
    this.count += merged.length;
    this.options.onRecords(merged);
  }

  /**
   * One polling round: every readable shard is read until caught up; a shard that ends lets its
   * children in, within the same round. Returns whether anything new turned up.
   */
  private async round(): Promise<boolean> {
    const visited = new Set<string>();
    let found = false;
    // A stream just enabled may list no shard yet.
    if (this.shards.size === 0) await this.discover();
    let ready = this.readable();
    while (ready.length > 0 && !this.stopped) {
      let ended = false;
      for (const shard of ready) {
        visited.add(shard.shardId);
        const records = this.pending.get(shard.shardId) ?? [];
        this.pending.set(shard.shardId, records);
        const before = records.length;
        try {
          await this.readShard(shard, records);
        } catch (error) {
          if (this.stopped && isAbort(error)) break;
          throw error;
        }
        if (records.length > before) {
          found = true;
          this.pendingSince ??= Date.now();
        }
        if (shard.ended) ended = found = true;
      }
      if (!ended || this.stopped) break;
      await this.discover();
      ready = this.readable().filter((shard) => !visited.has(shard.shardId));
    }
    return found;
  }

  /** Shards to read now: not ended, and their parent (when still listed) ended. */
  private readable(): ShardState[] {
    return [...this.shards.values()].filter((shard) => {
      if (shard.ended) return false;
      const parent = shard.parentShardId === undefined ? undefined : this.shards.get(shard.parentShardId);
      return parent === undefined || parent.ended;
    });
  }

  /** GetRecords until an empty page (caught up), the shard's end, or enough records. */
  private async readShard(shard: ShardState, into: DynamoDBRecord[]): Promise<void> {
    const { client, streamArn, signal } = this.options;
    shard.read = true;
    while (!this.stopped && into.length < this.remaining) {
      shard.iterator ??= await this.iteratorFor(shard);
      if (shard.iterator === undefined) return;
      let page: Awaited<ReturnType<typeof getRecords>>;
      try {
        page = await getRecords(client, shard.iterator, signal);
      } catch (error) {
        if (!(await this.recover(shard, error))) throw error;
        continue;
      }
      for (const record of page.Records ?? []) {
        const lambdaRecord = lambdaRecordOf(record, streamArn);
        into.push(lambdaRecord);
        shard.lastSequenceNumber = record.dynamodb?.SequenceNumber ?? shard.lastSequenceNumber;
      }
      shard.iterator = page.NextShardIterator;
      if (shard.iterator === undefined) {
        shard.ended = true;
        return;
      }
      if ((page.Records ?? []).length === 0) return;
    }
  }

  /** Handles a failed GetRecords: returns whether reading can go on. */
  private async recover(shard: ShardState, error: unknown): Promise<boolean> {
    // Iterators live 15 minutes (docs/streams-and-lambda.md §1.5.3): take a new one where the old one stood.
    if (error instanceof ExpiredIteratorException) {
      shard.iterator = undefined;
      return true;
    }
    // The records were trimmed before they were read (docs/streams-and-lambda.md §1.5.4): go on from the
    // oldest retained.
    if (error instanceof TrimmedDataAccessException) {
      this.options.onWarning?.(`records of ${shard.shardId} were trimmed before they were read`);
      shard.iterator = await this.iterator(shard, 'TRIM_HORIZON');
      return true;
    }
    if (error instanceof ResourceNotFoundException) {
      this.options.onWarning?.(`${shard.shardId} is gone (past retention)`);
      shard.ended = true;
      shard.iterator = undefined;
      return true;
    }
    return false;
  }

  /** The first iterator of a shard, or the one resuming after its last record read. */
  private iteratorFor(shard: ShardState): Promise<string | undefined> {
    if (shard.lastSequenceNumber !== undefined)
      return this.iterator(shard, 'AFTER_SEQUENCE_NUMBER', shard.lastSequenceNumber);
    const latest = this.options.from === 'latest' && shard.openAtStart;
    return this.iterator(shard, latest ? 'LATEST' : 'TRIM_HORIZON');
  }

  private async iterator(
    shard: ShardState,
    type: ShardIteratorType,
    sequenceNumber?: string,
  ): Promise<string | undefined> {
    const answer = await this.options.client.send(
      new GetShardIteratorCommand({
        StreamArn: this.options.streamArn,
        ShardId: shard.shardId,
        ShardIteratorType: type,
        ...(sequenceNumber === undefined ? {} : { SequenceNumber: sequenceNumber }),
      }),
      { abortSignal: this.options.signal },
    );
    return answer.ShardIterator;
  }

  /** DescribeStream, every page: adds shards not known yet. */
  private async discover(): Promise<void> {
    let start: string | undefined;
    do {
      const { StreamDescription: description } = await this.options.client.send(
        new DescribeStreamCommand({
          StreamArn: this.options.streamArn,
          ...(start === undefined ? {} : { ExclusiveStartShardId: start }),
        }),
        { abortSignal: this.options.signal },
      );
      this.streamDisabled = description?.StreamStatus === 'DISABLED';
      for (const shard of description?.Shards ?? []) {
        const shardId = shard.ShardId;
        if (shardId === undefined || this.shards.has(shardId)) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        const openAtStart = !this.started && !closed;
        this.shards.set(shardId, {
          shardId,
          parentShardId: shard.ParentShardId,
          openAtStart,
          iterator: undefined,
          lastSequenceNumber: undefined,
          // LATEST skips what is already written: shards closed before the recording started.
          ended: !this.started && closed && this.options.from === 'latest',
          read: false,
        });
      }
      start = description?.LastEvaluatedShardId;
    } while (start !== undefined);
  }
}

function getRecords(client: DynamoDBStreamsClient, iterator: string, signal: AbortSignal | undefined) {
  // 1000 records or 1 MB per page, whichever comes first (docs/streams-and-lambda.md §1.5.5).
  return client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }), {
    abortSignal: signal,
  });
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Waits `ms`, or less when the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
