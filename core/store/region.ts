import type { Table } from './table.js';

/** What a TransactWriteItems ClientRequestToken remembers (docs/dynamodb.md §7.3.4). */
export interface TransactionToken {
  readonly fingerprint: string;
  readonly completedAt: number;
}

/**
 * Recent ClientRequestTokens, oldest first. `onRemember` hears each token as it is remembered:
 * a data directory logs it with the transaction's commit, so idempotency survives a restart.
 */
export class TransactionTokens extends Map<string, TransactionToken> {
  onRemember: ((token: string, entry: TransactionToken) => void) | undefined;

  override set(token: string, entry: TransactionToken): this {
    super.set(token, entry);
    this.onRemember?.(token, entry);
    return this;
  }
}

/** Tables live per account and region, as in AWS; ARNs carry both. */
export class Region {
  readonly tables = new Map<string, Table>();
  /**
   * The last stream label given to each table name: a table deleted and re-created within the
   * same millisecond must still get a new stream ARN (docs/streams-and-lambda.md §1.1.8).
   */
  readonly lastStreamLabels = new Map<string, string>();
  /**
   * TransactWriteItems ClientRequestTokens of the last 10 minutes, oldest first (docs/dynamodb.md §7.3.4).
   */
  readonly transactionTokens = new TransactionTokens();

  constructor(
    readonly accountId: string,
    readonly name: string,
  ) {}

  tableArn(tableName: string): string {
    return `arn:aws:dynamodb:${this.name}:${this.accountId}:table/${tableName}`;
  }
}
