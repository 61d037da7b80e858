import type { AttributeValue } from 'aws-lambda';

/**
 * Ports: how built-in functions reach the outside. A function sees only these interfaces, never
 * engine internals, so the same handler can run against another implementation (a remote table,
 * a test double of the real thing).
 */

/** A DynamoDB item in stream-record form. */
export type Image = { [name: string]: AttributeValue };

/** An index as the gsi-maintainer needs to know it. */
export interface IndexDescription {
  readonly indexName: string;
  /** Key attributes with their declared types, HASH first. */
  readonly keys: readonly { name: string; type: 'S' | 'N' | 'B'; keyType: 'HASH' | 'RANGE' }[];
  /** Attribute names the index holds (keys included), or undefined when it projects ALL. */
  readonly projected: ReadonlySet<string> | undefined;
}

/** Writes index entries (the gsi-maintainer's port). */
export interface IndexWriter {
  /** The global secondary indexes of a table, by table ARN (empty for an unknown table). */
  globalIndexes(tableArn: string): readonly IndexDescription[];
  /** Puts (or replaces) the entry of an item that belongs in the index. */
  put(tableArn: string, indexName: string, image: Image): void;
  /** Removes the entry of an item that was in the index. */
  remove(tableArn: string, indexName: string, image: Image): void;
}

/** An item whose TTL has passed, as the expired-items port lists it (docs/streams-and-lambda.md §5.5). */
export interface ExpiredItem {
  /** The table's ARN. */
  readonly tableArn: string;
  /** The item's key attributes. */
  readonly keys: Image;
  /** The TTL attribute's value, epoch seconds. */
  readonly expiresAt: number;
  /** Opaque position in the table's expiry order: pass it back as `after` to read on. */
  readonly cursor: string;
}

/** Finds and deletes expired items (the ttl-expirer's port). */
export interface ExpiredItems {
  /** The table service's time, epoch milliseconds (the engine clock, virtual in tests). */
  now(): number;
  /** ARNs of the tables with TTL enabled. */
  tables(): readonly string[];
  /**
   * Up to `limit` items of a table expired now, oldest TTL first, after the cursor `after` when
   * given. Empty for an unknown table or one without TTL.
   */
  expired(tableArn: string, options: { limit: number; after?: string }): readonly ExpiredItem[];
  /**
   * Deletes the item as the TTL process (principal `dynamodb.amazonaws.com`) if it is still
   * expired; answers whether it did. A write that moved the TTL meanwhile wins
   * (docs/streams-and-lambda.md §5.9).
   */
  deleteIfExpired(item: ExpiredItem): boolean;
}

/**
 * One batch of archived items, as the archiver hands it to a sink: the sink derives the object
 * name from these fields alone, so a retried batch (same first record) lands on the same object.
 */
export interface ArchiveBatch {
  /** The table the items expired from. */
  readonly tableName: string;
  /** The table's ARN (from the records' `eventSourceARN`). */
  readonly tableArn: string;
  /** The shard id when the event names it, otherwise `stream-<label>`: safe in object names. */
  readonly shard: string;
  /**
   * SequenceNumber of the first and last archived record (decimal strings,
   * docs/streams-and-lambda.md §1.2.6).
   */
  readonly firstSequenceNumber: string;
  readonly lastSequenceNumber: string;
  /** ApproximateCreationDateTime of the first and last archived record, epoch seconds. */
  readonly firstCreatedAt: number;
  readonly lastCreatedAt: number;
  /** The expired items (the records' OldImages), in stream order. */
  readonly items: readonly Image[];
}

/** What a sink wrote for one batch. */
export interface ArchivedObject {
  /** Object key (S3) or path relative to the archive directory. */
  readonly key: string;
  readonly itemCount: number;
  /** Size of the object as stored. */
  readonly bytes: number;
}

/** Long-term storage for expired items (the archiver's port). */
export interface Sink {
  /**
   * Writes the batch as one object, atomically, replacing any earlier attempt of the same batch.
   * Rejects when the object could not be written (the archiver then reports the batch failed).
   */
  put(batch: ArchiveBatch): Promise<ArchivedObject>;
}

/** The ports a function may be given; each function declares which it needs. */
export interface Ports {
  indexWriter?: IndexWriter;
  expiredItems?: ExpiredItems;
  sink?: Sink;
}
