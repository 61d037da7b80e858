import { expect } from 'vitest';
import { VirtualClock } from '../../../../core/clock.js';
import { Engine } from '../../../../core/engine.js';
import { VALIDATION, wireError } from '../../../helpers/errors.js';

/** Control-plane test helpers: engines, table factories and error assertions. */

export const ACCOUNT = '000000000000';
export const REGION = 'us-east-1';
export const arnOf = (table: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${table}`;

/** Asserts a ValidationException with exactly `message`. */
export function expectValidation(engine: Engine, operation: string, input: unknown, message: string): void {
  expect(wireError(() => engine.execute(operation, input))).toEqual({ __type: VALIDATION, message });
}

/** Asserts the constraint-list message with exactly these entries (in any order). */
export function expectConstraints(
  engine: Engine,
  operation: string,
  input: unknown,
  entries: string[],
): void {
  const body = wireError(() => engine.execute(operation, input));
  expect(body.__type).toBe(VALIDATION);
  const message = body.message as string;
  const prefix = `${entries.length} validation error${entries.length === 1 ? '' : 's'} detected: `;
  expect(message.startsWith(prefix)).toBe(true);
  expect(message.slice(prefix.length).split('; ').sort()).toEqual([...entries].sort());
}

/** An engine whose tables settle at once (transient delay 0). */
export function instantEngine(): Engine {
  return new Engine({ clock: new VirtualClock() });
}

/** An engine on a virtual clock whose tables stay CREATING/UPDATING/DELETING for `delayMs`. */
export function slowEngine(delayMs = 1000): { engine: Engine; clock: VirtualClock } {
  const clock = new VirtualClock();
  return { engine: new Engine({ clock, transientStatusDelayMs: delayMs }), clock };
}

/** A hash-key table request (`a` S), on demand unless told otherwise. */
export function hashTable(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    TableName: name,
    AttributeDefinitions: [{ AttributeName: 'a', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'a', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
    ...extra,
  };
}

/** A hash-and-range table request (`a` S, `b` S), provisioned 1/1 unless told otherwise. */
export function rangeTable(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    TableName: name,
    AttributeDefinitions: [
      { AttributeName: 'a', AttributeType: 'S' },
      { AttributeName: 'b', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'a', KeyType: 'HASH' },
      { AttributeName: 'b', KeyType: 'RANGE' },
    ],
    ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    ...extra,
  };
}

export function describeOf(engine: Engine, name: string): Record<string, unknown> {
  return engine.execute('DescribeTable', { TableName: name }).Table as Record<string, unknown>;
}

export const keys = (...elements: [string, string][]) =>
  elements.map(([AttributeName, KeyType]) => ({ AttributeName, KeyType }));
export const defs = (...elements: [string, string][]) =>
  elements.map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
