import { ValidationException } from '../errors/index.js';
import type { Statement } from './ast.js';
import { parseStatement } from './parser.js';

/** Distinct statement texts remembered (the same bound as expression texts, `expressions/cache.ts`). */
export const STATEMENT_CACHE_CAPACITY = 512;

type Entry =
  | { readonly statement: Statement; readonly error: undefined }
  | { readonly statement: undefined; readonly error: string };

const cache = new Map<string, Entry>();

/**
 * Parses a statement once per text and remembers the outcome, the tree or the parse error's
 * message, in a bounded LRU: applications send the same parameterised statements over and over,
 * as they send the same expression texts (docs/partiql.md §3).
 */
export function parseStatementCached(text: string): Statement {
  // The statement just parsed again (a loop of one parameterised statement) skips the LRU upkeep.
  if (text === lastText && lastEntry !== undefined) return answer(lastEntry);
  let entry = cache.get(text);
  if (entry !== undefined) {
    // Refresh recency: Map iteration order is insertion order, so the first key is the oldest.
    cache.delete(text);
    cache.set(text, entry);
  } else {
    entry = parse(text);
    if (cache.size >= STATEMENT_CACHE_CAPACITY) cache.delete(cache.keys().next().value as string);
    cache.set(text, entry);
  }
  lastText = text;
  lastEntry = entry;
  return answer(entry);
}

let lastText: string | undefined;
let lastEntry: Entry | undefined;

function answer(entry: Entry): Statement {
  if (entry.error !== undefined) throw new ValidationException(entry.error);
  return entry.statement;
}

function parse(text: string): Entry {
  try {
    return { statement: parseStatement(text), error: undefined };
  } catch (error) {
    if (error instanceof ValidationException) return { statement: undefined, error: error.message };
    throw error;
  }
}

/** Forgets every cached statement (for tests and benchmarks). */
export function clearStatementCache(): void {
  cache.clear();
  lastText = undefined;
  lastEntry = undefined;
}
