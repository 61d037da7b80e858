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

  constructor(private readonly onSet: () => void = noop) {
    super();
  }

  override set(token: string, entry: TransactionToken): this {
    super.set(token, entry);
    this.onSet();
    this.onRemember?.(token, entry);
    return this;
  }
}

/** A Map that tells its region whenever something is put in it. */
class RegionMap<K, V> extends Map<K, V> {
  constructor(private readonly onSet: () => void) {
    super();
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    this.onSet();
    return this;
  }
}

function noop(): void {}

/**
 * Tables live per account and region, as in AWS; ARNs carry both.
 *
 * A region says when it first holds something (`onFirstContent`): the engine keeps a region
 * only from then on, so requests signed for thousands of region names that hold nothing cost
 * nothing that stays (docs/security.md, "Resource bounds").
 */
export class Region {
  private holding = false;
  private readonly held = () => {
    if (this.holding) return;
    this.holding = true;
    this.onFirstContent(this);
  };
  readonly tables: Map<string, Table> = new RegionMap(this.held);
  /**
   * The last stream label given to each table name: a table deleted and re-created within the
   * same millisecond must still get a new stream ARN (docs/streams-and-lambda.md §1.1.8).
   */
  readonly lastStreamLabels: Map<string, string> = new RegionMap(this.held);
  /**
   * TransactWriteItems ClientRequestTokens of the last 10 minutes, oldest first (docs/dynamodb.md §7.3.4).
   */
  readonly transactionTokens = new TransactionTokens(this.held);

  constructor(
    readonly accountId: string,
    readonly name: string,
    private readonly onFirstContent: (region: Region) => void = noop,
  ) {}

  /** Whether anything was ever put in this region (a table, a stream label, a token). */
  get holdsSomething(): boolean {
    return this.holding;
  }

  tableArn(tableName: string): string {
    return `arn:aws:dynamodb:${this.name}:${this.accountId}:table/${tableName}`;
  }
}
