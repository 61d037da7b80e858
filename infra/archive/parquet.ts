import type { AttributeValue } from 'aws-lambda';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { type ColumnSource, parquetWriteBuffer } from 'hyparquet-writer';
import type { Image } from '../../functions/shared/ports.js';

/**
 * Items ↔ Parquet, for Athena / Redshift Spectrum style analytics. Each top-level attribute is a
 * nullable column (null where an item lacks it), typed when its values agree:
 *
 * | attribute values (all items)                        | column (Parquet)           |
 * |-----------------------------------------------------|----------------------------|
 * | all `S`                                             | STRING (BYTE_ARRAY UTF8)   |
 * | all `N`, each exactly a double (`String(Number(n)) === n`) | DOUBLE              |
 * | all `N`, some not exactly a double (20-digit ids, 38 digits) | STRING (the number text) |
 * | all `BOOL`                                          | BOOLEAN                    |
 * | anything else (`B`, sets, `L`, `M`, `NULL`, mixed types) | JSON: the DynamoDB JSON of the value, e.g. `{"L":[{"N":"1"}]}` |
 *
 * Types follow Athena's Parquet support (https://docs.aws.amazon.com/athena/latest/ug/data-types.html).
 * The DynamoDB type of each column is kept in the file's key-value metadata
 * (`eddy.dynamodb.columns`), so reading back gives the exact items: an `N` column stored as
 * STRING still reads back as `N`. Written with hyparquet-writer (SNAPPY, its default).
 */

/** How one column stores its attribute. */
export type ColumnKind = 'S' | 'N' | 'N_TEXT' | 'BOOL' | 'JSON';

export interface ColumnDescription {
  readonly name: string;
  readonly kind: ColumnKind;
}

export const COLUMNS_METADATA_KEY = 'eddy.dynamodb.columns';

const PARQUET_TYPE = { S: 'STRING', N: 'DOUBLE', N_TEXT: 'STRING', BOOL: 'BOOLEAN', JSON: 'JSON' } as const;

/** Whether a DynamoDB number's text survives a trip through a double unchanged. */
export function isExactDouble(text: string): boolean {
  return String(Number(text)) === text;
}

function kindOf(value: AttributeValue): ColumnKind {
  if (value.S !== undefined) return 'S';
  if (value.N !== undefined) return isExactDouble(value.N) ? 'N' : 'N_TEXT';
  if (value.BOOL !== undefined) return 'BOOL';
  return 'JSON';
}

/** Joins two kinds seen in one column: equal kinds stay, N with N_TEXT is N_TEXT, else JSON. */
function joinKinds(a: ColumnKind, b: ColumnKind): ColumnKind {
  if (a === b) return a;
  if ((a === 'N' && b === 'N_TEXT') || (a === 'N_TEXT' && b === 'N')) return 'N_TEXT';
  return 'JSON';
}

/** The columns of a set of items: names in order of first appearance, kinds joined over items. */
export function columnsOf(items: readonly Image[]): ColumnDescription[] {
  const kinds = new Map<string, ColumnKind>();
  for (const item of items) {
    for (const name of Object.keys(item)) {
      const kind = kindOf(item[name]!);
      const seen = kinds.get(name);
      kinds.set(name, seen === undefined ? kind : joinKinds(seen, kind));
    }
  }
  return [...kinds].map(([name, kind]) => ({ name, kind }));
}

function cellOf(value: AttributeValue | undefined, kind: ColumnKind): unknown {
  if (value === undefined) return null;
  switch (kind) {
    case 'S':
      return value.S;
    case 'N':
      return Number(value.N);
    case 'N_TEXT':
      return value.N;
    case 'BOOL':
      return value.BOOL;
    case 'JSON':
      return value;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Items → a Parquet file (one row group per 100,000 rows). */
export function encodeParquet(items: readonly Image[]): Uint8Array {
  const columns = columnsOf(items);
  const columnData: ColumnSource[] = columns.map(({ name, kind }) => ({
    name,
    type: PARQUET_TYPE[kind],
    nullable: true,
    data: items.map((item) => cellOf(hasOwn.call(item, name) ? item[name] : undefined, kind)),
  })) as ColumnSource[];
  const buffer = parquetWriteBuffer({
    columnData,
    rowGroupSize: 100_000,
    createdBy: 'eddy archiver',
    kvMetadata: [{ key: COLUMNS_METADATA_KEY, value: JSON.stringify(columns) }],
  });
  return new Uint8Array(buffer);
}

function attributeOf(cell: unknown, kind: ColumnKind | undefined): AttributeValue {
  switch (kind) {
    case 'S':
      return { S: String(cell) };
    case 'N':
      return { N: String(cell) };
    case 'N_TEXT':
      return { N: String(cell) };
    case 'BOOL':
      return { BOOL: Boolean(cell) };
    case 'JSON':
      return (typeof cell === 'string' ? JSON.parse(cell) : cell) as AttributeValue;
    default:
      // A file eddy did not write: guess from the JavaScript type.
      if (typeof cell === 'string') return { S: cell };
      if (typeof cell === 'number' || typeof cell === 'bigint') return { N: String(cell) };
      if (typeof cell === 'boolean') return { BOOL: cell };
      return { S: JSON.stringify(cell) };
  }
}

/** A Parquet file → items (the exact items for files eddy wrote). */
export async function decodeParquet(body: Uint8Array): Promise<Image[]> {
  const file = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  const metadata = parquetMetadata(file);
  const described = metadata.key_value_metadata?.find((kv) => kv.key === COLUMNS_METADATA_KEY)?.value;
  const kinds = new Map<string, ColumnKind>(
    described === undefined
      ? []
      : (JSON.parse(described) as ColumnDescription[]).map(({ name, kind }) => [name, kind]),
  );
  const rows = await parquetReadObjects({ file, metadata });
  return rows.map((row) => {
    const item: Image = {};
    for (const name of Object.keys(row)) {
      const cell = row[name];
      if (cell === null || cell === undefined) continue;
      const value = attributeOf(cell, kinds.get(name));
      if (name === '__proto__')
        Object.defineProperty(item, name, { value, enumerable: true, writable: true });
      else item[name] = value;
    }
    return item;
  });
}
