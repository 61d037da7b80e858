import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall, type unmarshallOptions } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { map, type OperatorFunction } from '../rxjs.js';

/** A record with its keys and images as plain JavaScript values. */
export interface UnmarshalledChange<T = Record<string, unknown>> {
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  readonly keys: Record<string, unknown>;
  /** The item after the change (absent on REMOVE, or when the view type has no new image). */
  readonly newImage: T | undefined;
  /** The item before the change (absent on INSERT, or when the view type has no old image). */
  readonly oldImage: T | undefined;
  readonly sequenceNumber: string;
  /** The record it came from. */
  readonly record: DynamoDBRecord;
}

type Image = Record<string, AttributeValue>;

/**
 * Turns each record's `Keys`, `NewImage` and `OldImage` into plain values with
 * `@aws-sdk/util-dynamodb`'s `unmarshall` (N → number, or `NumberValue` with `wrapNumbers`;
 * sets → `Set`). The record itself is left untouched (unlike `@middy/event-normalizer`, which
 * rewrites images in place).
 *
 * ```
 * source:             -a-b-|    (a: {Keys:{id:{S:"1"}}, NewImage:{id:{S:"1"},n:{N:"2"}}})
 * unmarshallImages(): -A-B-|    (A: {keys:{id:"1"}, newImage:{id:"1",n:2}, ...})
 * ```
 *
 * @example
 * ```ts
 * interface Order { id: string; total: number }
 * changes$(changeLog, 'Orders')
 *   .pipe(unmarshallImages<Order>())
 *   .subscribe(({ eventName, newImage }) => console.log(eventName, newImage?.total));
 * ```
 */
export function unmarshallImages<T = Record<string, unknown>>(
  options?: unmarshallOptions,
): OperatorFunction<DynamoDBRecord, UnmarshalledChange<T>> {
  return map((record) => {
    const body = record.dynamodb ?? {};
    return {
      eventName: record.eventName!,
      keys: unmarshall((body.Keys ?? {}) as Image, options),
      newImage: body.NewImage === undefined ? undefined : (unmarshall(body.NewImage as Image, options) as T),
      oldImage: body.OldImage === undefined ? undefined : (unmarshall(body.OldImage as Image, options) as T),
      sequenceNumber: body.SequenceNumber ?? '',
      record,
    };
  });
}
