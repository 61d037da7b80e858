import type { DynamoDBRecord } from 'aws-lambda';
import { filter, type MonoTypeOperatorFunction } from '../rxjs.js';

/** Whether an attribute differs between a record's OldImage and NewImage (absent counts). */
function changed(record: DynamoDBRecord, name: string): boolean {
  const before = record.dynamodb?.OldImage?.[name];
  const after = record.dynamodb?.NewImage?.[name];
  if (before === undefined || after === undefined) return before !== after;
  return JSON.stringify(before) === JSON.stringify(after) ? false : !sameValue(before, after);
}

/** Set members compare as sets (their order carries no meaning). */
function sameValue(a: object, b: object): boolean {
  const [typeA, valueA] = Object.entries(a)[0] ?? [];
  const [typeB, valueB] = Object.entries(b)[0] ?? [];
  if (typeA !== typeB) return false;
  if ((typeA === 'SS' || typeA === 'NS' || typeA === 'BS') && Array.isArray(valueA) && Array.isArray(valueB))
    return (
      valueA.length === valueB.length &&
      [...valueA].sort().join('\u0000') === [...valueB].sort().join('\u0000')
    );
  return false;
}

/**
 * Keeps the records where at least one of `names` changed: INSERTs and REMOVEs that carry the
 * attribute, and MODIFYs whose old and new values differ. Needs a view type with both images
 * (NEW_AND_OLD_IMAGES) to see MODIFYs; records without images never match.
 *
 * ```
 * source:                  -a-b-c-|   (a: status new→paid, b: total changed, c: status paid→shipped)
 * whereChanged('status'):  -a---c-|
 * ```
 *
 * @example
 * ```ts
 * changes$(changeLog, 'Orders').pipe(whereChanged('status')).subscribe(notifyCustomer);
 * ```
 */
export function whereChanged<T extends DynamoDBRecord>(...names: string[]): MonoTypeOperatorFunction<T> {
  return filter((record) => names.some((name) => changed(record, name)));
}
