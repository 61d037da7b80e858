/**
 * PartiQL in process (issue #20 figures): a key-equality SELECT next to GetItem of the same item,
 * and a parameterised INSERT next to PutItem of the same item, on tables of 100,000 ~200-byte
 * items, measured in the same run. The target is half of the native operation's rate or better:
 * a statement pays for its parse (cached per text), its binding and its planning, then runs the
 * native read or write (docs/partiql.md §6).
 *
 * Run: npm run bench -- partiql (BENCH_TSX=1: through tsx)
 */
import { Engine } from '../core/engine.js';
import { toWireJson } from '../core/wire.js';
import { createCustomerTable, customerItem } from './fixtures.js';
import { formatRate, printTable, type Row } from './support.js';

const ITEM_COUNT = 100_000;
const NATIVE = 'BenchNative';
const PARTIQL = 'BenchPartiql';

export async function run(): Promise<Row[]> {
  // sideBySide() warms up on 20,000 operations, then runs them all: every write gets a fresh
  // key (an INSERT of an existing key fails), so both columns measure inserts.
  const WARMUP = 20_000;
  const items = Array.from({ length: ITEM_COUNT + WARMUP }, (_, i) => customerItem(i, { visits: i % 997 }));
  const engine = new Engine();
  createCustomerTable(engine, NATIVE);
  createCustomerTable(engine, PARTIQL);

  const putInputs = items.map((Item) => ({ TableName: NATIVE, Item }));
  const insert = `INSERT INTO "${PARTIQL}" VALUE {'pk': ?, 'name': ?, 'email': ?, 'plan': ?, 'visits': ?, 'active': ?, 'tags': ?}`;
  const insertInputs = items.map((item) => ({
    Statement: insert,
    Parameters: [item.pk, item.name, item.email, item.plan, item.visits, item.active, item.tags],
  }));
  let nextPut = 0;
  let nextInsert = 0;
  const [put, inserted] = sideBySide(
    ITEM_COUNT,
    () => engine.executeRaw('PutItem', putInputs[nextPut++]),
    () => engine.executeRaw('ExecuteStatement', insertInputs[nextInsert++]),
  );

  const getInputs = items.map((item) => ({ TableName: NATIVE, Key: { pk: item.pk } }));
  const select = `SELECT * FROM "${PARTIQL}" WHERE pk = ?`;
  const selectInputs = items.map((item) => ({ Statement: select, Parameters: [item.pk] }));
  const [get, selected] = sideBySide(
    ITEM_COUNT * 3,
    (i) => toWireJson(engine.executeRaw('GetItem', getInputs[i % ITEM_COUNT])),
    (i) => toWireJson(engine.executeRaw('ExecuteStatement', selectInputs[i % ITEM_COUNT])),
  );

  const rows: Row[] = [
    {
      name: 'SELECT * WHERE pk = ? (vs GetItem)',
      value: formatRate(selected),
      baseline: formatRate(get),
      ratio: selected / get,
      target: '≥ 0.50×',
    },
    {
      name: 'INSERT … VALUE {…} with ? (vs PutItem)',
      value: formatRate(inserted),
      baseline: formatRate(put),
      ratio: inserted / put,
      target: '≥ 0.50×',
    },
  ];
  printTable(`PartiQL in process, ${ITEM_COUNT.toLocaleString('en-US')} items per table`, rows);
  return rows;
}

/**
 * Rates of two operations measured in alternating slices of 5,000 calls, after a warm-up of
 * each: a machine whose load changes during the run slows both alike, so their ratio holds.
 */
function sideBySide(
  count: number,
  native: (i: number) => unknown,
  partiql: (i: number) => unknown,
): [number, number] {
  const SLICE = 5_000;
  const WARM = 20_000;
  for (let i = 0; i < WARM; i++) native(i);
  for (let i = 0; i < WARM; i++) partiql(i);
  let nativeTime = 0n;
  let partiqlTime = 0n;
  for (let done = 0; done < count; done += SLICE) {
    const end = Math.min(count, done + SLICE);
    let start = process.hrtime.bigint();
    for (let i = done; i < end; i++) native(i);
    nativeTime += process.hrtime.bigint() - start;
    start = process.hrtime.bigint();
    for (let i = done; i < end; i++) partiql(i);
    partiqlTime += process.hrtime.bigint() - start;
  }
  return [count / (Number(nativeTime) / 1e9), count / (Number(partiqlTime) / 1e9)];
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
