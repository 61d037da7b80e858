import { isUtf8 } from 'node:buffer';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import {
  DataTransferFailure,
  type ImportChunk,
  type ImportLine,
  type ImportRequest,
  type ImportSource,
} from '../../core/backups/ports.js';
import { CLOSE_BRACE } from '../../core/store/canonicalText.js';
import { StoredItemScanner } from '../../core/store/storedItemScan.js';
import type { Buckets } from './buckets.js';
import { csvRecords } from './csv.js';
import { loadIon, mapOf } from './ionText.js';

const gunzipAsync = promisify(gunzip);

/**
 * Lines handed to the engine at a time. Small enough that a chunk's line objects die young, before
 * a scavenge would promote them: 4,096 → 512 took an import of 50,000 items from ~2,020 M to
 * ~1,730 M instructions (callgrind, two runs each, node startup subtracted).
 */
const LINES_PER_CHUNK = 512;

/**
 * Reads ImportTable sources (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataImport.Format.html):
 * every object under the key prefix, decompressed (GZIP, ZSTD or NONE), as items:
 *
 * - DYNAMODB_JSON: `{"Item": {...}}` values, one per line; values written one after the other
 *   on a line are read too (the service imports them: getmoto/moto
 *   tests/test_dynamodb/test_dynamodb_import_table.py, test_import_table_single_file_with_multiple_items);
 * - ION: `$ion_1_0 {Item:{...}}` lines;
 * - CSV: a header line (or `CsvOptions.HeaderList`) and rows; key attributes get their declared
 *   type, every other column is a string, and an empty cell is no attribute.
 *
 * A line that cannot be read as an item becomes an error line, and the rest of its object is not
 * read; an item that fails PutItem's checks is the engine's to count (docs/backups.md §4.3).
 */
export class BucketImportSource implements ImportSource {
  constructor(private readonly buckets: Buckets) {}

  async *read(request: ImportRequest): AsyncIterable<ImportChunk> {
    if (!(await this.buckets.exists(request.bucket)))
      throw new DataTransferFailure('S3NoSuchBucket', 'The specified bucket does not exist');
    const store = this.buckets.store(request.bucket);
    const scanner = request.tableKeys === undefined ? undefined : new StoredItemScanner(request.tableKeys);
    for (const object of await store.list(request.prefix ?? '')) {
      if (object.key.endsWith('/')) continue;
      const raw = await store.get(object.key);
      if (raw === undefined) continue;
      let data: Buffer;
      try {
        data = bufferOf(await decompress(raw, request.compression));
      } catch (error) {
        // Nothing of it could be read: one error for the object, as for an unreadable line.
        yield {
          objectKey: object.key,
          bytes: 0,
          lines: [{ line: 1, error: `could not decompress (${request.compression}): ${messageOf(error)}` }],
        };
        continue;
      }
      // ProcessedSizeBytes counts the object as decompressed (measured: docs/backups.md §4.3).
      let bytes = data.length;
      let lines: ImportLine[] = [];
      for (const line of linesOf(data, request, scanner)) {
        lines.push(line);
        if (lines.length === LINES_PER_CHUNK) {
          yield { objectKey: object.key, bytes, lines };
          bytes = 0;
          lines = [];
        }
      }
      if (lines.length > 0 || bytes > 0) yield { objectKey: object.key, bytes, lines };
    }
  }
}

/** Decompressed bytes as a Buffer, without copying them (zlib answers a Buffer already). */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function decompress(body: Uint8Array, compression: ImportRequest['compression']): Promise<Uint8Array> {
  if (compression === 'GZIP') return gunzipAsync(body);
  if (compression === 'ZSTD') return zstdDecompress(body);
  return body;
}

function linesOf(
  data: Buffer,
  request: ImportRequest,
  scanner: StoredItemScanner | undefined,
): Iterable<ImportLine> {
  if (request.format === 'CSV') return csvLines(data.toString('utf8'), request);
  if (request.format === 'ION') return ionLines(data.toString('utf8'));
  return jsonLines(data, scanner);
}

/** Where a value cannot be read as an item: the reader gives up on the rest of its object. */
const UNREADABLE = true;

function itemOf(value: unknown, line: number): ImportLine {
  const item = (value as { Item?: unknown } | null)?.Item;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    typeof item !== 'object' ||
    item === null ||
    Array.isArray(item)
  )
    return { line, error: 'not an item: expected {"Item": {...}}' };
  return { line, item: item as Record<string, unknown> };
}

const NEWLINE = 0x0a;
/** `{"Item":`, how every line of a DynamoDB JSON export starts. */
const ITEM_PREFIX = Buffer.from('{"Item":');

function startsWithItem(data: Buffer, from: number): boolean {
  for (let i = 0; i < ITEM_PREFIX.length; i++) if (data[from + i] !== ITEM_PREFIX[i]) return false;
  return true;
}

/**
 * DYNAMODB_JSON lines. A line `{"Item":<item>}` whose item is in eddy's stored form (an export by
 * eddy) is recognised by one pass over its bytes and keeps them as its text (`storedItemScan.ts`,
 * docs/backups.md §4.2); any other line is parsed. The first line that cannot be read as an item
 * (not JSON, or no `Item` member) is one error, and the rest of its object is not read (measured
 * against AWS: docs/backups.md §4.3). Blank lines are nothing.
 */
function* jsonLines(data: Buffer, scanner: StoredItemScanner | undefined): Generator<ImportLine> {
  // The pass needs UTF-8 to measure strings by their bytes; an object that is not (rare) is
  // decoded, with U+FFFD for what is broken, and parsed.
  const recogniser = scanner !== undefined && isUtf8(data) ? scanner : undefined;
  const length = data.length;
  let number = 0;
  let from = 0;
  while (from < length) {
    number++;
    if (recogniser !== undefined && startsWithItem(data, from)) {
      const scanned = recogniser.scan(data, from + ITEM_PREFIX.length, length);
      if (scanned !== undefined && data[scanned.end] === CLOSE_BRACE) {
        const after = scanned.end + 1;
        if (after === length || data[after] === NEWLINE) {
          yield { line: number, stored: scanned };
          from = after + 1;
          continue;
        }
      }
    }
    let end = data.indexOf(NEWLINE, from);
    if (end === -1) end = length;
    const line = data.toString('utf8', from, end);
    from = end + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      // Several values on one line, or one broken value.
      if ((yield* concatenatedValues(trimmed, number)) === UNREADABLE) return;
      continue;
    }
    const read = itemOf(parsed, number);
    yield read;
    if (read.error !== undefined) return;
  }
}

// JSON.parse makes `__proto__` an own member, so attribute names like it stay data.

/**
 * Splits `{...}{...}` into its top-level values (strings and nesting respected); answers
 * UNREADABLE after the first value that is not an item.
 */
function* concatenatedValues(line: string, number: number): Generator<ImportLine, boolean> {
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      let read: ImportLine;
      try {
        read = itemOf(JSON.parse(line.slice(start, i + 1)), number);
      } catch (error) {
        read = { line: number, error: `not JSON: ${messageOf(error)}` };
      }
      yield read;
      if (read.error !== undefined) return UNREADABLE;
      start = -1;
    } else if (depth === 0 && c !== ' ' && c !== '\t' && c !== '\r') {
      yield { line: number, error: 'not JSON' };
      return UNREADABLE;
    }
  }
  if (depth !== 0) {
    yield { line: number, error: 'not JSON: unterminated value' };
    return UNREADABLE;
  }
  return !UNREADABLE;
}

function* ionLines(text: string): Generator<ImportLine> {
  let number = 0;
  for (const line of text.split('\n')) {
    number++;
    if (line.trim() === '') continue;
    let values: ReturnType<typeof loadIon>;
    try {
      values = loadIon(line);
    } catch (error) {
      yield { line: number, error: `not Ion: ${messageOf(error)}` };
      return;
    }
    // As DYNAMODB_JSON's: the first value that is not an item ends the object.
    for (const value of values) {
      let read: ImportLine;
      try {
        const item = value.get('Item');
        read =
          item === null
            ? { line: number, error: 'not an item: expected {Item:{...}}' }
            : { line: number, item: mapOf(item) };
      } catch (error) {
        read = { line: number, error: messageOf(error) };
      }
      yield read;
      if (read.error !== undefined) return;
    }
  }
}

function* csvLines(text: string, request: ImportRequest): Generator<ImportLine> {
  const delimiter = request.csv?.delimiter ?? ',';
  let header = request.csv?.headerList;
  for (const { line, cells } of csvRecords(text, delimiter)) {
    if (header === undefined) {
      header = cells;
      continue;
    }
    if (cells.length === 1 && cells[0] === '') continue;
    if (cells.length > header.length) {
      // A row that cannot be an item ends the object, as a DYNAMODB_JSON line does.
      yield { line, error: `${cells.length} columns, the header has ${header.length}` };
      return;
    }
    const item: Record<string, unknown> = Object.create(null);
    for (let column = 0; column < cells.length; column++) {
      const value = cells[column]!;
      if (value === '') continue;
      const name = header[column]!;
      const type = request.keyTypes.get(name) ?? 'S';
      item[name] = { [type]: value };
    }
    yield { line, item };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
