/**
 * The records of one shard that a mapping has read but not finished (delivered, discarded, or, in
 * a tumbling window, closed). The lowest of them is the checkpoint: everything before it is done
 * (records the filter dropped included), so a mapping that stops and starts again resumes there
 * (docs/streams-and-lambda.md §2.1.13) and never loses a record. Records finish out of order when several
 * batches of a shard run at once (ParallelizationFactor), so this is a low watermark, not a counter.
 */
export interface Trackable {
  readonly ordinal: number;
  slot: number;
}

export class OutstandingRecords<T extends Trackable> {
  private items: (T | undefined)[] = [];
  /** Absolute slot of `items[0]`. */
  private offset = 0;
  /** Index in `items` of the oldest unfinished record. */
  private head = 0;
  private live = 0;

  /** Unfinished records. */
  get count(): number {
    return this.live;
  }

  /** The oldest unfinished record. */
  get oldest(): T | undefined {
    return this.items[this.head];
  }

  track(record: T): void {
    record.slot = this.offset + this.items.length;
    this.items.push(record);
    this.live++;
  }

  finish(record: T): void {
    const index = record.slot - this.offset;
    if (index < this.head || this.items[index] !== record) return;
    this.items[index] = undefined;
    this.live--;
    const items = this.items;
    while (this.head < items.length && items[this.head] === undefined) this.head++;
    // Compact when the finished prefix dominates: amortised O(1) per record.
    if (this.head >= 1024 && this.head * 2 >= items.length) {
      this.items = items.slice(this.head);
      this.offset += this.head;
      this.head = 0;
    }
  }

  /** Forgets everything (the mapping stopped; these records will be read again). */
  clear(): void {
    this.offset += this.items.length;
    this.items = [];
    this.head = 0;
    this.live = 0;
  }
}
