import { readFileSync } from 'node:fs';
import type { DynamoDBRecord } from 'aws-lambda';

/**
 * Files of stream records, as `eddy record` writes them and `eddy invoke --events` reads them:
 *
 * - JSON lines, one Lambda record (`event.Records[i]`) per line: what `eddy record` writes;
 * - a Lambda event, `{"Records": [...]}`: what `eddy event dynamodb`, `sam local generate-event`
 *   and the Lambda console's test events hold;
 * - a JSON array of records.
 *
 * A line of a JSON-lines file may itself be a whole event (its records are taken in order), so
 * logged invocation events can be concatenated into one file.
 */

/** A record of an input file and where it came from (for messages). */
export interface RecordedRecord {
  readonly record: DynamoDBRecord;
  /** `line 3` of a JSON-lines file, `Records[2]` of an event. */
  readonly where: string;
}

/** An events file eddy cannot replay: which file, where in it, and why. */
export class ReplayInputError extends Error {
  override readonly name = 'ReplayInputError';
  constructor(
    readonly file: string,
    /** `line 3`, `Records[2]`, or empty for the file as a whole. */
    readonly where: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}${where === '' ? '' : ` (${where})`}: ${reason}`, options);
  }
}

/** Reads and parses an events file (see `parseRecords`). */
export function readRecordFile(file: string): RecordedRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ReplayInputError(file, '', `cannot be read: ${messageOf(error)}`, { cause: error });
  }
  return parseRecords(text, file);
}

/**
 * Parses events-file text: a whole JSON document (an event, an array, one record) or JSON lines.
 * @throws ReplayInputError naming the line or index of the first record that is not an object
 *   with `eventName` and `dynamodb`.
 */
export function parseRecords(text: string, file: string): RecordedRecord[] {
  const whole = tryParse(text);
  if (whole.ok) return recordsOf(whole.value, '', file);
  const records: RecordedRecord[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `line ${index + 1}`;
    const parsed = tryParse(line);
    if (!parsed.ok) throw new ReplayInputError(file, where, `not JSON (${parsed.reason}): ${EXPECTED}`);
    records.push(...recordsOf(parsed.value, where, file));
  });
  return records;
}

function recordsOf(value: unknown, where: string, file: string): RecordedRecord[] {
  const prefix = where === '' ? '' : `${where}, `;
  if (Array.isArray(value)) return value.map((record, index) => checked(record, `${prefix}[${index}]`, file));
  if (isObject(value) && Object.hasOwn(value, 'Records')) {
    const list = value.Records;
    if (!Array.isArray(list)) throw new ReplayInputError(file, where, '"Records" must be an array');
    return list.map((record, index) => checked(record, `${prefix}Records[${index}]`, file));
  }
  return [checked(value, where, file)];
}

/** What an events file holds, said when it holds something else. */
const EXPECTED =
  'expected Lambda DynamoDB stream records: JSON lines from `eddy record`, a Lambda event {"Records": [...]} (`eddy event dynamodb`) or a JSON array of records';

/** The shape every replayed record needs; the values are checked when the record is replayed. */
function checked(value: unknown, where: string, file: string): RecordedRecord {
  if (!isObject(value))
    throw new ReplayInputError(file, where, `${describe(value)} is not a stream record: ${EXPECTED}`);
  const { eventName, dynamodb } = value;
  // Nothing of a DynamoDB stream record: another kind of file, or another source's event.
  if (eventName === undefined && dynamodb === undefined) {
    const source = typeof value.eventSource === 'string' ? value.eventSource : undefined;
    const what =
      source !== undefined && source !== 'aws:dynamodb'
        ? `a record of ${source}`
        : `an object with ${Object.keys(value).slice(0, 4).join(', ') || 'no members'}${Object.keys(value).length > 4 ? ', ...' : ''}`;
    throw new ReplayInputError(file, where, `not a DynamoDB stream record (${what}): ${EXPECTED}`);
  }
  if (eventName !== 'INSERT' && eventName !== 'MODIFY' && eventName !== 'REMOVE')
    throw new ReplayInputError(file, where, 'eventName must be INSERT, MODIFY or REMOVE');
  if (!isObject(dynamodb) || !isObject(dynamodb.Keys))
    throw new ReplayInputError(
      file,
      where,
      'a record needs dynamodb.Keys (docs/streams-and-lambda.md §1.2.1)',
    );
  return { record: value as unknown as DynamoDBRecord, where };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
