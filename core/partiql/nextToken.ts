import { createHash } from 'node:crypto';
import { ValidationException } from '../errors/index.js';
import type { AttributeMap } from '../model/attributeValue.js';
import { PartiqlMessages } from './errors.js';

/**
 * ExecuteStatement's NextToken (docs/partiql.md §4.1): base64 of a small JSON document holding the
 * request it belongs to (a hash of the statement and its parameters), when it was made, which
 * partition the page stopped in and the key of the last item evaluated. A token used with another
 * statement, older than an hour, or not one of ours is refused with DynamoDB Local's messages.
 */
export const NEXT_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

export interface PagePosition {
  /** Which of the statement's partitions (in read order) the page stopped in; 0 for a scan. */
  readonly partition: number;
  /** The last evaluated item's key (the table's, or the index's plus the table's). */
  readonly key: AttributeMap;
}

/** A digest of the statement text and its parameters, tying a token to its request. */
export function requestHash(statement: string, parameters: unknown): string {
  return createHash('sha256')
    .update(statement)
    .update('\u0000')
    .update(JSON.stringify(parameters ?? []))
    .digest('base64');
}

export function encodeNextToken(hash: string, now: number, position: PagePosition): string {
  const document = { v: 1, h: hash, t: now, p: position.partition, k: position.key };
  return Buffer.from(JSON.stringify(document)).toString('base64');
}

export function decodeNextToken(token: string, hash: string, now: number): PagePosition {
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw new ValidationException(PartiqlMessages.invalidNextToken);
  }
  if (!isTokenDocument(document)) throw new ValidationException(PartiqlMessages.invalidNextToken);
  if (document.h !== hash) throw new ValidationException(PartiqlMessages.nextTokenMismatch);
  if (now - document.t >= NEXT_TOKEN_LIFETIME_MS)
    throw new ValidationException(PartiqlMessages.nextTokenExpired);
  const key: AttributeMap = Object.create(null);
  for (const [name, value] of Object.entries(document.k)) key[name] = value as never;
  return { partition: document.p, key };
}

interface TokenDocument {
  v: 1;
  h: string;
  t: number;
  p: number;
  k: Record<string, unknown>;
}

function isTokenDocument(value: unknown): value is TokenDocument {
  if (typeof value !== 'object' || value === null) return false;
  const document = value as Record<string, unknown>;
  return (
    document.v === 1 &&
    typeof document.h === 'string' &&
    typeof document.t === 'number' &&
    Number.isSafeInteger(document.p) &&
    (document.p as number) >= 0 &&
    typeof document.k === 'object' &&
    document.k !== null &&
    Object.values(document.k).every(isScalarKeyValue)
  );
}

function isScalarKeyValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const entries = Object.entries(value);
  return (
    entries.length === 1 && ['S', 'N', 'B'].includes(entries[0]![0]) && typeof entries[0]![1] === 'string'
  );
}
