import { TTL_PRINCIPAL } from '../changeEvent.js';
import type { Engine } from '../engine.js';
import { type AttributeMap, newFastAttributeMap, setAttribute } from '../model/attributeValue.js';
import { decodeKeyValue } from '../model/keyCodec.js';
import type { Region } from '../store/region.js';
import type { Table } from '../store/table.js';
import { isExpired } from './expiry.js';
import { parseExpiryKey, splitItemKey } from './expiryIndex.js';

/** An expired item as the port lists it (structurally the `ExpiredItem` of `functions/shared/ports.ts`). */
export interface ExpiredItemView {
  readonly tableArn: string;
  readonly keys: AttributeMap;
  /** The TTL value, epoch seconds. */
  readonly expiresAt: number;
  /** The item's expiry-index key: where to resume in the table's expiry order. */
  readonly cursor: string;
}

/** A listed item; its key attributes are decoded on first use (the expirer may never ask). */
class ExpiredCandidate implements ExpiredItemView {
  private decodedKeys: AttributeMap | undefined;

  constructor(
    readonly tableArn: string,
    readonly expiresAt: number,
    readonly cursor: string,
    private readonly table: Table,
  ) {}

  get keys(): AttributeMap {
    if (this.decodedKeys === undefined) {
      const { hashKey, rangeKey } = splitItemKey(this.cursor.slice(8));
      this.decodedKeys = keysOf(this.table, hashKey, rangeKey);
    }
    return this.decodedKeys;
  }

  /** The keys when they belong to `table` (a table deleted and re-created has other keys). */
  keysFor(table: Table): AttributeMap | undefined {
    return table === this.table ? this.keys : undefined;
  }
}

const TABLE_ARN = /^arn:aws:dynamodb:([^:]+):([^:]+):table\/([^/]+)$/;

/**
 * The engine's expired-items port, handed to the ttl-expirer function (which decides when each
 * item goes; this finds candidates in the expiry index and deletes them). Structurally it is
 * the `ExpiredItems` port of `functions/shared/ports.ts` (core imports nothing from `functions`).
 *
 * A deletion is an ordinary commit of a delete with the TTL identity (docs/streams-and-lambda.md §1.2.8,
 * §5.10, §5.11): the change event, and so the REMOVE stream record, carries
 * `userIdentity {type: 'Service', principalId: 'dynamodb.amazonaws.com'}`; global and local
 * indexes lose the entry as for DeleteItem; no capacity is computed, none is consumed.
 *
 * @example
 * ```ts
 * const port = new EngineExpiredItems(engine);
 * for (const tableArn of port.tables()) {
 *   for (const item of port.expired(tableArn, { limit: 100 })) port.deleteIfExpired(item);
 * }
 * ```
 */
export class EngineExpiredItems {
  private readonly regions = new Map<string, { region: Region; tableName: string }>();

  constructor(private readonly engine: Engine) {}

  now(): number {
    return this.engine.clock.now();
  }

  /** ARNs of the tables with TTL enabled, in every account and region. */
  tables(): string[] {
    const arns: string[] = [];
    for (const region of this.engine.allRegions()) {
      for (const table of region.tables.values()) {
        // A global table's expired items are deleted in one replica and the deletions reach the
        // others by replication, without the TTL identity (docs/global-tables.md §4).
        if (table.expiryIndex === undefined || !table.readable) continue;
        if (table.replication === undefined || table.replication.deletesExpiredItems(table))
          arns.push(table.arn);
      }
    }
    return arns;
  }

  /** Up to `limit` items expired now, oldest TTL first, after `after` (a cursor) when given. */
  expired(tableArn: string, options: { limit: number; after?: string }): ExpiredItemView[] {
    const table = this.locate(tableArn)?.table;
    const index = table?.expiryIndex;
    const found: ExpiredItemView[] = [];
    if (table === undefined || index === undefined || !table.readable || options.limit <= 0) return found;
    for (const key of index.expired(this.now(), options.after)) {
      found.push(new ExpiredCandidate(tableArn, parseExpiryKey(key).at, key, table));
      if (found.length >= options.limit) break;
    }
    return found;
  }

  /**
   * Deletes the item if, now, TTL is still enabled on its table and the item's TTL value, read
   * from the item as stored, is still expired: the condition that lets a concurrent update
   * extending the TTL win (docs/streams-and-lambda.md §5.9).
   */
  deleteIfExpired(item: { readonly tableArn: string; readonly cursor: string }): boolean {
    const located = this.locate(item.tableArn);
    if (located === undefined) return false;
    const { region, table } = located;
    const index = table.expiryIndex;
    if (index === undefined || !table.readable) return false;
    const { at, itemKey } = parseExpiryKey(item.cursor);
    const { hashKey, rangeKey } = splitItemKey(itemKey);
    const previous = table.items.get(hashKey, rangeKey);
    const current = previous === undefined ? undefined : index.ttlOf(previous);
    if (current !== at) {
      // The commit hook already moved the entry; drop it should it linger for any reason.
      index.remove(item.cursor);
      return false;
    }
    if (previous === undefined || !isExpired(at, this.now())) return false;
    const keys =
      (item instanceof ExpiredCandidate ? item.keysFor(table) : undefined) ??
      keysOf(table, hashKey, rangeKey);
    this.engine.commit(
      region,
      table,
      [{ key: { hashKey, rangeKey, keys }, previous, next: undefined }],
      TTL_PRINCIPAL,
    );
    return true;
  }

  private locate(tableArn: string): { region: Region; table: Table } | undefined {
    let located = this.regions.get(tableArn);
    if (located === undefined) {
      const match = TABLE_ARN.exec(tableArn);
      if (match === null) return undefined;
      located = { region: this.engine.region(match[2]!, match[1]!), tableName: match[3]! };
      this.regions.set(tableArn, located);
    }
    const table = located.region.tables.get(located.tableName);
    return table === undefined ? undefined : { region: located.region, table };
  }
}

/** The key attributes of an item, from its encoded key. */
function keysOf(table: Table, hashKey: string, rangeKey: string): AttributeMap {
  const keys = newFastAttributeMap();
  const { hash, range } = table.key;
  setAttribute(keys, hash.name, { [hash.type]: decodeKeyValue(hash.type, hashKey) } as never);
  if (range !== undefined) {
    setAttribute(keys, range.name, { [range.type]: decodeKeyValue(range.type, rangeKey) } as never);
  }
  return keys;
}
