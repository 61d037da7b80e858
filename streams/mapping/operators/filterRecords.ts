import { filter, map, type OperatorFunction, pipe } from '../../rxjs.js';

/**
 * Keeps the records of each chunk that the mapping's filter matches (docs/streams-and-lambda.md §3). The
 * others are consumed, never retried and never sent to a destination (docs/streams-and-lambda.md §3.15): they
 * go to `onDropped` (the mapping counts them) and the checkpoint moves past them. A chunk left empty is
 * dropped, so no invocation happens when nothing in a poll matches.
 *
 * ```
 * source:                       -[a,B]-[c]-[D,e]-|
 * filterRecords(isUpperCase):   -[B]-------[D]---|     (a, c, e to onDropped)
 * ```
 *
 * @example
 * ```ts
 * chunks$.pipe(filterRecords((record) => matches(record), () => stats.filtered++));
 * ```
 */
export function filterRecords<T>(
  matches: (record: T) => boolean,
  onDropped: (record: T) => void = () => {},
): OperatorFunction<readonly T[], T[]> {
  return pipe(
    map((chunk: readonly T[]) => {
      const kept: T[] = [];
      for (const record of chunk) {
        if (matches(record)) kept.push(record);
        else onDropped(record);
      }
      return kept;
    }),
    filter((kept) => kept.length > 0),
  );
}
