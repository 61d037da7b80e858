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

/** The ports a function may be given; each function declares which it needs. */
export interface Ports {
  indexWriter?: IndexWriter;
}
