import { ValidationException } from '../errors/index.js';
import { utf8Length } from '../model/utf8.js';
import { ExpressionMessages, expressionError } from './errors.js';
import type { ExpressionKind } from './index.js';
import { isBlankText } from './lexer.js';

/** Expression strings may hold 4096 bytes (docs/dynamodb.md §2.6.1). */
export const MAX_EXPRESSION_BYTES = 4096;
/** Distinct texts remembered per expression kind. */
export const CACHE_CAPACITY = 512;

type Entry =
  | { readonly value: unknown; readonly error: undefined }
  | { readonly value: undefined; readonly error: string };

const caches = new Map<ExpressionKind, Map<string, Entry>>();

/**
 * Parses an expression text once and remembers the outcome: the tree with its text-only checks
 * passed, or the message of the first text-only error (bounded LRU per kind). Everything that
 * depends on ExpressionAttributeNames / Values happens after, per request.
 *
 * The size limit (checked before parsing, docs/dynamodb.md §2.6.1) and the empty-expression check come first;
 * texts over the limit are never cached.
 */
export function parseCached<T>(kind: ExpressionKind, text: string, build: (text: string) => T): T {
  let cache = caches.get(kind);
  if (cache === undefined) {
    cache = new Map();
    caches.set(kind, cache);
  }
  let entry = cache.get(text);
  if (entry !== undefined) {
    // Refresh recency: Map iteration order is insertion order, so the first key is the oldest.
    cache.delete(text);
    cache.set(text, entry);
  } else {
    const bytes = utf8Length(text);
    if (bytes > MAX_EXPRESSION_BYTES) throw expressionError(kind, ExpressionMessages.tooLarge(bytes));
    entry = evaluate(kind, text, build);
    if (cache.size >= CACHE_CAPACITY) cache.delete(cache.keys().next().value as string);
    cache.set(text, entry);
  }
  if (entry.error !== undefined) throw new ValidationException(entry.error);
  return entry.value as T;
}

function evaluate<T>(kind: ExpressionKind, text: string, build: (text: string) => T): Entry {
  if (isBlankText(text))
    return { value: undefined, error: expressionError(kind, ExpressionMessages.empty).message };
  try {
    return { value: build(text), error: undefined };
  } catch (error) {
    if (error instanceof ValidationException) return { value: undefined, error: error.message };
    throw error;
  }
}

/** Forgets every cached text (for tests and benchmarks). */
export function clearExpressionCache(): void {
  caches.clear();
}
