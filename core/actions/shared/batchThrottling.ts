import type { Engine, ItemWrite } from '../../engine.js';
import type { DynamoDbError } from '../../errors/index.js';
import type { Table } from '../../store/table.js';
import type { CapacityGovernor } from '../../throttling/capacityGovernor.js';
import { writeCharge } from './capacityCharge.js';

/**
 * Throttling inside BatchGetItem and BatchWriteItem: a throttled item goes to UnprocessedKeys /
 * UnprocessedItems and the rest proceeds; only when no item at all could be processed does the
 * request fail, with the throttling exception
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html).
 */
export class BatchThrottling {
  private processed = 0;
  private lastError: DynamoDbError | undefined;

  constructor(private readonly governor: CapacityGovernor) {}

  /** Whether this key's read is throttled (else it is charged). */
  throttlesRead(table: Table, units: number, hashKey: string): boolean {
    if (!this.governor.active) return this.count(undefined);
    return this.count(this.governor.readOutcome(table, { units, hashKey }));
  }

  /** Whether this put or delete is throttled (else it is charged). */
  throttlesWrite(engine: Engine, table: Table, write: ItemWrite): boolean {
    if (!this.governor.active) return this.count(undefined);
    return this.count(this.governor.writeOutcome(table, writeCharge(engine, table, write)));
  }

  /** Throws the last item's throttling exception when every item was throttled. */
  throwIfNothingProcessed(): void {
    if (this.processed === 0 && this.lastError !== undefined) throw this.lastError;
  }

  private count(error: DynamoDbError | undefined): boolean {
    if (error === undefined) {
      this.processed++;
      return false;
    }
    this.lastError = error;
    return true;
  }
}
