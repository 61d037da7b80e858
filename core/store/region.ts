import type { Table } from './table.js';

/** Tables live per account and region, as in AWS; ARNs carry both. */
export class Region {
  readonly tables = new Map<string, Table>();
  /**
   * The last stream label given to each table name: a table deleted and re-created within the
   * same millisecond must still get a new stream ARN (streams spec §1.1.8).
   */
  readonly lastStreamLabels = new Map<string, string>();
  /** TransactWriteItems ClientRequestTokens of the last 10 minutes, oldest first (spec §7.3.4). */
  readonly transactionTokens = new Map<string, { fingerprint: string; completedAt: number }>();

  constructor(
    readonly accountId: string,
    readonly name: string,
  ) {}

  tableArn(tableName: string): string {
    return `arn:aws:dynamodb:${this.name}:${this.accountId}:table/${tableName}`;
  }
}
