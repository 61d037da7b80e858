import { newShardId } from './ids.js';
import { formatSequenceNumber } from './sequenceNumber.js';

/** What persistence keeps of a shard besides its retained positions (see `Shard.restore`). */
export interface ShardState {
  readonly id: string;
  readonly createdAt: number;
  readonly startOrdinal: number;
  readonly parentId: string | undefined;
  readonly endOrdinal: number | undefined;
  readonly closedAt: number | undefined;
  readonly trimmedThrough: number;
}

/**
 * One shard of a stream (docs/streams-and-lambda.md §1.4): the positions (in the stream's event log) of the
 * records that hashed to it, in commit order. A shard is open until it rolls over or its stream is
 * disabled; then it is closed with an EndingSequenceNumber and receives nothing more.
 *
 * Ordinals: the record at log position p has ordinal p + 1 (see `sequenceNumber.ts`).
 */
export class Shard {
  readonly id: string;
  /** Ordinal of StartingSequenceNumber: no record of this shard is below it. */
  readonly startOrdinal: number;
  /** Ordinal of EndingSequenceNumber once closed. */
  endOrdinal: number | undefined;
  closedAt: number | undefined;
  /** Highest ordinal of this shard that was trimmed (0: none). */
  trimmedThrough = 0;
  private positions: number[] = [];
  private first = 0;

  constructor(
    readonly createdAt: number,
    startOrdinal: number,
    readonly parentId: string | undefined,
    id = newShardId(createdAt),
  ) {
    this.id = id;
    this.startOrdinal = startOrdinal;
  }

  get closed(): boolean {
    return this.endOrdinal !== undefined;
  }

  /** Number of retained records. */
  get size(): number {
    return this.positions.length - this.first;
  }

  push(position: number): void {
    this.positions.push(position);
  }

  /**
   * Closes the shard: EndingSequenceNumber is its last record's. A shard that never held one
   * ends just before its start: the range holds no sequence number, rather than naming the
   * stream's next record, which went to another shard.
   */
  close(at: number): void {
    if (this.closed) return;
    const last =
      this.positions.length > this.first ? this.positions[this.positions.length - 1]! + 1 : undefined;
    this.endOrdinal = last ?? (this.trimmedThrough > 0 ? this.trimmedThrough : this.startOrdinal - 1);
    this.closedAt = at;
  }

  /** Forgets records whose log position is below `logHead` (they were trimmed from the log). */
  trimBelow(logHead: number): void {
    let first = this.first;
    const positions = this.positions;
    while (first < positions.length && positions[first]! < logHead) first++;
    if (first === this.first) return;
    this.trimmedThrough = positions[first - 1]! + 1;
    this.first = first;
    if (first >= 1024 && first * 2 >= positions.length) {
      this.positions = positions.slice(first);
      this.first = 0;
    }
  }

  /** Index (into the retained records) of the first record whose ordinal is ≥ `ordinal`. */
  indexAtOrdinal(ordinal: number): number {
    let low = this.first;
    let high = this.positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.positions[middle]! + 1 < ordinal) low = middle + 1;
      else high = middle;
    }
    return low - this.first;
  }

  /** Log position of the retained record at `index` (0 ≤ index < size). */
  positionAt(index: number): number {
    return this.positions[this.first + index]!;
  }

  /**
   * The ordinal a TRIM_HORIZON iterator starts at: the oldest record still held
   * (docs/streams-and-lambda.md §1.5.1).
   */
  get trimHorizonOrdinal(): number {
    if (this.size > 0) return this.positions[this.first]! + 1;
    return Math.max(this.startOrdinal, this.trimmedThrough + 1);
  }

  /** The shard's state without its positions (persistence reads those with `positionAt`). */
  exportState(): ShardState {
    return {
      id: this.id,
      createdAt: this.createdAt,
      startOrdinal: this.startOrdinal,
      parentId: this.parentId,
      endOrdinal: this.endOrdinal,
      closedAt: this.closedAt,
      trimmedThrough: this.trimmedThrough,
    };
  }

  /** A shard as `exportState` described it, holding `positions` (increasing log positions). */
  static restore(state: ShardState, positions: number[]): Shard {
    const shard = new Shard(state.createdAt, state.startOrdinal, state.parentId, state.id);
    shard.endOrdinal = state.endOrdinal;
    shard.closedAt = state.closedAt;
    shard.trimmedThrough = state.trimmedThrough;
    shard.positions = positions;
    return shard;
  }

  /**
   * DescribeStream's Shard object (docs/streams-and-lambda.md §1.4.2: open shards have no
   * EndingSequenceNumber). StartingSequenceNumber is "the first sequence number for the stream
   * records contained within a shard"
   * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_SequenceNumberRange.html):
   * its oldest record's; a shard that holds none gives where its records would start.
   */
  describe(): Record<string, unknown> {
    const range: Record<string, string> = {
      StartingSequenceNumber: formatSequenceNumber(this.trimHorizonOrdinal),
    };
    if (this.endOrdinal !== undefined) range.EndingSequenceNumber = formatSequenceNumber(this.endOrdinal);
    const shard: Record<string, unknown> = { ShardId: this.id, SequenceNumberRange: range };
    if (this.parentId !== undefined) shard.ParentShardId = this.parentId;
    return shard;
  }
}
