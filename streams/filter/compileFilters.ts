import { compilePattern, type RecordMatcher } from './compilePattern.js';

/**
 * `FilterCriteria.Filters` (docs/streams-and-lambda.md §3.1): the patterns are OR-ed, a record is delivered
 * when at least one matches. No patterns: every record is delivered (`undefined`, so callers can skip
 * building records for matching at all).
 * @throws InvalidPatternError for the first invalid pattern.
 *
 * @example
 * ```ts
 * const deliver = compileFilters(['{"eventName": ["INSERT"]}', '{"eventName": ["REMOVE"]}']);
 * deliver?.({ eventName: 'MODIFY' }); // false
 * ```
 */
export function compileFilters(patterns: readonly string[]): RecordMatcher | undefined {
  if (patterns.length === 0) return undefined;
  const matchers = patterns.map(compilePattern);
  if (matchers.length === 1) return matchers[0];
  return (record) => matchers.some((matches) => matches(record));
}
