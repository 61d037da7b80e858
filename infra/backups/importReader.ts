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
import type { Buckets } from './buckets.js';
import { csvRecords } from './csv.js';
import { loadIon, mapOf } from './ionText.js';

const gunzipAsync = promisify(gunzip);

/** Lines handed to the engine at a time (it commits them in one slice of work). */
const LINES_PER_CHUNK = 4096;

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
 * A line that cannot be read becomes an error line: the import counts it and goes on.
 */
export class BucketImportSource implements ImportSource {
  constructor(private readonly buckets: Buckets) {}

  async *read(request: ImportRequest): AsyncIterable<ImportChunk> {
    if (!(await this.buckets.exists(request.bucket)))
      throw new DataTransferFailure('S3NoSuchBucket', 'The specified bucket does not exist');
    const store = this.buckets.store(request.bucket);
    for (const object of await store.list(request.prefix ?? '')) {
      if (object.key.endsWith('/')) continue;
      const raw = await store.get(object.key);
      if (raw === undefined) continue;
      let text: string;
      try {
        text = textOf(await decompress(raw, request.compression));
      } catch (error) {
        yield {
          objectKey: object.key,
          bytes: raw.length,
          lines: [{ line: 1, error: `could not decompress (${request.compression}): ${messageOf(error)}` }],
        };
        continue;
      }
      let bytes = raw.length;
      let lines: ImportLine[] = [];
      for (const line of linesOf(text, request)) {
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

/** UTF-8 text of decompressed bytes, without copying them first (zlib answers a Buffer). */
function textOf(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.toString('utf8');
}

async function decompress(body: Uint8Array, compression: ImportRequest['compression']): Promise<Uint8Array> {
  if (compression === 'GZIP') return gunzipAsync(body);
  if (compression === 'ZSTD') return zstdDecompress(body);
  return body;
}

function* linesOf(text: string, request: ImportRequest): Generator<ImportLine> {
  if (request.format === 'CSV') yield* csvLines(text, request);
  else if (request.format === 'ION') yield* ionLines(text);
  else yield* jsonLines(text);
}

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

function* jsonLines(text: string): Generator<ImportLine> {
  // Lines found with indexOf, each parsed as it is: JSON.parse skips the whitespace around a
  // value, so only a line that fails is trimmed (to tell a blank line from a broken one). No
  // array of every line and no trimmed copy per line (the import's hot path, docs/backups.md §9).
  let number = 0;
  let from = 0;
  while (from < text.length) {
    let end = text.indexOf('\n', from);
    if (end === -1) end = text.length;
    number++;
    const line = text.slice(from, end);
    from = end + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      // Several values on one line, or one broken value.
      yield* concatenatedValues(trimmed, number);
      continue;
    }
    yield itemOf(parsed, number);
  }
}

// JSON.parse makes `__proto__` an own member, so attribute names like it stay data.

/** Splits `{...}{...}` into its top-level values (strings and nesting respected). */
function* concatenatedValues(line: string, number: number): Generator<ImportLine> {
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
      try {
        yield itemOf(JSON.parse(line.slice(start, i + 1)), number);
      } catch (error) {
        yield { line: number, error: `not JSON: ${messageOf(error)}` };
      }
      start = -1;
    } else if (depth === 0 && c !== ' ' && c !== '\t' && c !== '\r') {
      yield { line: number, error: 'not JSON' };
      return;
    }
  }
  if (depth !== 0) yield { line: number, error: 'not JSON: unterminated value' };
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
      continue;
    }
    for (const value of values) {
      try {
        const item = value.get('Item');
        if (item === null) yield { line: number, error: 'not an item: expected {Item:{...}}' };
        else yield { line: number, item: mapOf(item) };
      } catch (error) {
        yield { line: number, error: messageOf(error) };
      }
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
      yield { line, error: `${cells.length} columns, the header has ${header.length}` };
      continue;
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
