import type { TableRef } from '../core/changeEvent.js';
import type { StreamState, Table } from '../core/store/table.js';
import { InternalFeed } from './internalFeed.js';
import { Stream, type StreamSettings } from './stream.js';

/** Where a table log finds and registers streams (the change log). */
export interface StreamRegistry {
  readonly settings: StreamSettings;
  streamByArn(arn: string): Stream | undefined;
  addStream(stream: Stream): void;
}

/**
 * The change log's view of one table incarnation (one `tableId`): its internal feed, and its
 * current user stream kept in step with `table.stream` (docs/streams-and-lambda.md §1.6). The control plane
 * only sets `table.stream`; `sync` turns that setting into streams: enabling creates a stream (a new ARN
 * and label each time, docs/streams-and-lambda.md §1.1.8), disabling closes its shards
 * (docs/streams-and-lambda.md §1.4.7).
 */
export class TableLog {
  readonly internal = new InternalFeed();
  current: Stream | undefined;
  private seenState: StreamState | undefined;
  private seenEnabled = false;

  constructor(
    readonly ref: TableRef,
    public table: Table | undefined,
    private readonly registry: StreamRegistry,
  ) {}

  /** Cheap per-commit check: did the stream setting change since the last sync? */
  get stale(): boolean {
    const state = this.table?.stream;
    return state !== this.seenState || (state !== undefined && state.enabled !== this.seenEnabled);
  }

  /** Applies the table's stream setting as of `now`. */
  sync(now: number): void {
    const state = this.table?.stream;
    this.seenState = state;
    this.seenEnabled = state?.enabled ?? false;
    if (
      this.current !== undefined &&
      (state === undefined || !state.enabled || state.arn !== this.current.arn)
    ) {
      this.current.disable(now);
      this.current = undefined;
    }
    if (state?.enabled && this.current === undefined) {
      const known = this.registry.streamByArn(state.arn);
      // The same ARN on another table incarnation (a table re-created within the same
      // millisecond) is a new stream: the new one takes the ARN over.
      if (known !== undefined && known.tableId === this.ref.tableId) {
        if (known.enabled) this.current = known;
        return;
      }
      this.current = new Stream(
        {
          arn: state.arn,
          label: state.label,
          viewType: state.viewType,
          createdAt: labelTime(state.label, now),
          accountId: this.ref.accountId,
          region: this.ref.region,
          tableName: this.ref.tableName,
          tableId: this.ref.tableId,
          keySchema: (this.table?.keySchema ?? []).map((element) => ({ ...element })),
        },
        this.registry.settings,
      );
      this.registry.addStream(this.current);
    }
  }

  /**
   * The table was deleted: its stream turns DISABLED and is deleted 24 hours later, as
   * DeleteTable documents; the internal feed ends.
   */
  gone(now: number): void {
    this.table = undefined;
    this.seenState = undefined;
    this.current?.disable(now);
    this.current = undefined;
    this.internal.end();
  }
}

/** The epoch ms a stream label spells (ISO-8601 with ms, no zone: UTC, docs/streams-and-lambda.md §1.1.7). */
export function labelTime(label: string, fallback: number): number {
  const time = Date.parse(`${label}Z`);
  return Number.isNaN(time) ? fallback : time;
}
