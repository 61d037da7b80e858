import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Case, dynaliteCases, motoCases, newerThanDynalite, tables } from './cases.js';
import {
  type Answer,
  call,
  constraintEntries,
  motoAvailable,
  type Reference,
  startDynalite,
  startEddy,
  startMoto,
  withoutCaller,
} from './references.js';

/**
 * eddy compared with servers it shares no code with (docs/dynamodb.md §9.1): dynalite for the texts
 * DynamoDB kept from dynalite's era, moto for the texts its aws_verified tests recorded in 2026.
 * A case fails the day eddy's wording or order drifts from the reference's, or the day the
 * reference moves (then the evidence in `cases.ts` says which side to follow).
 */
async function prepare(reference: Reference, cases: readonly Case[]): Promise<void> {
  for (const table of tables) {
    const answer = await call(reference, 'CreateTable', table);
    if (answer.status !== 200) throw new Error(`${reference.name}: ${answer.error} ${answer.message}`);
  }
  for (const entry of cases)
    for (const [operation, body] of entry.before ?? []) await call(reference, operation, body);
}

/** What two answers must share: the status, the exception and the text (or the set of entries). */
function comparable(answer: Answer, entries: boolean | undefined) {
  if (answer.status === 200) return { status: 200, body: answer.body };
  const listed = entries ? constraintEntries(answer.message) : undefined;
  return { status: answer.status, error: answer.error, message: listed ?? withoutCaller(answer.message) };
}

describe('eddy answers as dynalite recorded DynamoDB', () => {
  let eddy: Reference;
  let dynalite: Reference;
  beforeAll(async () => {
    [eddy, dynalite] = await Promise.all([startEddy(), startDynalite()]);
    await Promise.all([prepare(eddy, dynaliteCases), prepare(dynalite, dynaliteCases)]);
  });
  afterAll(async () => {
    await Promise.all([eddy?.close(), dynalite?.close()]);
  });

  it.each(dynaliteCases.map((entry) => [`${entry.family}: ${entry.name}`, entry] as const))(
    '%s',
    async (_, entry) => {
      const [mine, theirs] = await Promise.all([
        call(eddy, entry.operation, entry.body),
        call(dynalite, entry.operation, entry.body),
      ]);
      expect(comparable(mine, entry.entries)).toEqual(comparable(theirs, entry.entries));
    },
  );

  it.each(
    newerThanDynalite.map(
      (entry) => [`${entry.family}: ${entry.name} (${entry.eddy.evidence})`, entry] as const,
    ),
  )('%s', async (_, entry) => {
    const [mine, theirs] = await Promise.all([
      call(eddy, entry.operation, entry.body),
      call(dynalite, entry.operation, entry.body),
    ]);
    expect({ error: mine.error, message: mine.message }).toEqual({
      error: entry.eddy.error,
      message: entry.eddy.message,
    });
    expect({ error: theirs.error, message: theirs.message }).toEqual(entry.reference);
  });

  /**
   * The 1 MB page at its boundary (docs/dynamodb.md §6.2.3): dynalite's model of the page size,
   * fitted to its recorded tests, decides the same item as eddy's.
   */
  it.each([
    ['one byte under', 43_412 - 46, 25],
    ['at 1 MiB', 43_412 - 45, 24],
  ])('page: a Scan %s ends where dynalite ends it', async (_, length, scanned) => {
    const table = `page${length}`;
    for (const reference of [eddy, dynalite]) {
      await call(reference, 'CreateTable', {
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'a', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'a', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      });
    }
    // Both order a scan by the same hash of the key (docs/dynamodb.md §6.4.2), so the same item
    // comes 24th on both.
    const keys = Array.from({ length: 25 }, (_, i) => String(i).padStart(2, '0'));
    for (const reference of [eddy, dynalite]) {
      for (const a of keys) await call(reference, 'PutItem', { TableName: table, Item: { a: { S: a } } });
    }
    const order = (
      (await call(eddy, 'Scan', { TableName: table })).body!.Items as { a: { S: string } }[]
    ).map((item) => item.a.S);
    const text = 'b'.repeat(43_411);
    for (const reference of [eddy, dynalite]) {
      for (const [i, a] of order.entries()) {
        const item: Record<string, unknown> = {
          a: { S: a },
          b: { S: i === 23 ? text.slice(0, length) : i === 24 ? 'b' : text },
        };
        if (i === 23) Object.assign(item, { c: { N: '12.3456' }, d: { B: 'AQI=' }, e: { SS: ['a', 'bc'] } });
        if (i === 23)
          Object.assign(item, { f: { NS: ['1.23', '12.3'] }, g: { BS: ['AQI=', 'Ag==', 'AQ=='] } });
        await call(reference, 'PutItem', { TableName: table, Item: item });
      }
    }
    const pages = await Promise.all(
      [eddy, dynalite].map((reference) => call(reference, 'Scan', { TableName: table, Select: 'COUNT' })),
    );
    expect(pages.map((page) => page.body?.ScannedCount)).toEqual([scanned, scanned]);
  });
});

// moto runs from python: CI and this machine have it (moto 5.2.1). Without it there is no 2026
// reference to compare with, so the suite says so and skips.
describe.skipIf(!motoAvailable)('eddy answers as moto recorded DynamoDB in 2026 (needs moto_server)', () => {
  let eddy: Reference;
  let moto: Reference;
  beforeAll(async () => {
    [eddy, moto] = await Promise.all([startEddy(), startMoto()]);
    await Promise.all([prepare(eddy, motoCases), prepare(moto, motoCases)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([eddy?.close(), moto?.close()]);
  });

  it.each(motoCases.map((entry) => [`${entry.family}: ${entry.name}`, entry] as const))(
    '%s',
    async (_, entry) => {
      const [mine, theirs] = await Promise.all([
        call(eddy, entry.operation, entry.body),
        call(moto, entry.operation, entry.body),
      ]);
      expect(comparable(mine, entry.entries)).toEqual(comparable(theirs, entry.entries));
    },
  );
});
