import {
  BatchExecuteStatementCommand,
  ExecuteStatementCommand,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThrottleMessages } from '../../core/throttling/throttle.js';
import {
  type CapacityServer,
  pkTable,
  rejection,
  startCapacityServer,
  tableWithIndex,
} from './capacityServer.js';

/**
 * PartiQL statements under enforced capacity (docs/capacity.md §5, docs/partiql.md §4), charged as
 * the operations they are planned onto, with no burst so each second holds exactly the
 * provisioned units. Evidence:
 * - ExecuteStatement throws ProvisionedThroughputExceededException and ThrottlingException, as
 *   GetItem/Query/Scan and PutItem/UpdateItem/DeleteItem do (its error list in botocore's
 *   service-2.json and https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExecuteStatement.html);
 * - BatchExecuteStatement's error list has no ProvisionedThroughputExceededException; a failed
 *   statement answers an Error whose Code is one of BatchStatementErrorCodeEnum, which holds
 *   `ProvisionedThroughputExceeded` and `ThrottlingError`, and "a HTTP 200 response does not mean
 *   that all statements in the BatchExecuteStatement succeeded" (botocore's service-2.json;
 *   https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html,
 *   API_BatchStatementError.html);
 * - ThrottlingReasons name `<Table|Index><Read|Write><limit>` and the resource's ARN
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html).
 */
const TABLE = 'Orders';
const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';
const INDEX_ARN = `${TABLE_ARN}/index/ByStatus`;

const statement = (Statement: string) => new ExecuteStatementCommand({ Statement });

describe('ExecuteStatement on a table of 1 RCU and 1 WCU', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer({ mode: 'enforce', burstSeconds: 0 });
    await eddy.once.send(
      tableWithIndex(TABLE, [1, 1], { name: 'ByStatus', attribute: 'status', capacity: [1, 1] }),
    );
  });
  afterEach(() => eddy.close());

  const stored = async (pk: string) =>
    (await eddy.once.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: pk } } }))).Item;

  it('throttles an INSERT past the table write capacity with ProvisionedThroughputExceededException and writes nothing', async () => {
    await eddy.once.send(statement(`INSERT INTO "${TABLE}" VALUE {'pk': 'a'}`));

    const error = await rejection(eddy.once.send(statement(`INSERT INTO "${TABLE}" VALUE {'pk': 'b'}`)));

    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.message).toBe(ThrottleMessages.provisionedTable);
    expect(error.ThrottlingReasons).toEqual([
      { reason: 'TableWriteProvisionedThroughputExceeded', resource: TABLE_ARN },
    ]);
    await eddy.clock.advance('1s');
    expect(await stored('b')).toBeUndefined();
  });

  it('throttles UPDATE and DELETE as UpdateItem and DeleteItem, leaving the item as it was', async () => {
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' }, n: { N: '1' } } }));

    const update = await rejection(eddy.once.send(statement(`UPDATE "${TABLE}" SET n = 2 WHERE pk = 'a'`)));
    const remove = await rejection(eddy.once.send(statement(`DELETE FROM "${TABLE}" WHERE pk = 'a'`)));

    expect([update.name, remove.name]).toEqual([
      'ProvisionedThroughputExceededException',
      'ProvisionedThroughputExceededException',
    ]);
    await eddy.clock.advance('1s');
    expect(await stored('a')).toEqual({ pk: { S: 'a' }, n: { N: '1' } });
  });

  it('throttles a write whose GSI update cannot be absorbed, with the index reason', async () => {
    // A table of 5 WCU whose GSI has 1: the index runs out first.
    await eddy.once.send(
      tableWithIndex('Indexed', [1, 5], { name: 'ByStatus', attribute: 'status', capacity: [1, 1] }),
    );
    eddy.engine.execute('PutItem', { TableName: 'Indexed', Item: { pk: { S: 'a' }, status: { S: 'new' } } });

    const error = await rejection(
      eddy.once.send(statement(`UPDATE "Indexed" SET status = 'paid' WHERE pk = 'a'`)),
    );

    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.message).toBe(ThrottleMessages.provisionedIndex);
    expect(error.ThrottlingReasons).toEqual([
      {
        reason: 'IndexWriteProvisionedThroughputExceeded',
        resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/Indexed/index/ByStatus',
      },
    ]);
    expect(eddy.engine.execute('GetItem', { TableName: 'Indexed', Key: { pk: { S: 'a' } } })).toEqual({
      Item: { pk: { S: 'a' }, status: { S: 'new' } },
    });
  });

  it('throttles a SELECT by the full key as GetItem once the read capacity is spent', async () => {
    await eddy.once.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' } } }));
    const read = new ExecuteStatementCommand({
      Statement: `SELECT * FROM "${TABLE}" WHERE pk = 'a'`,
      ConsistentRead: true,
    });
    await eddy.once.send(read);

    const error = await rejection(eddy.once.send(read));

    expect(error.name).toBe('ProvisionedThroughputExceededException');
    expect(error.ThrottlingReasons).toEqual([
      { reason: 'TableReadProvisionedThroughputExceeded', resource: TABLE_ARN },
    ]);
    await eddy.clock.advance('1s');
    expect((await eddy.once.send(read)).Items).toEqual([{ pk: { S: 'a' } }]);
  });

  it('charges a SELECT scan to the table and a SELECT on a GSI to the index', async () => {
    const scan = new ExecuteStatementCommand({ Statement: `SELECT * FROM "${TABLE}"`, ConsistentRead: true });
    await eddy.once.send(scan);
    const scanned = await rejection(eddy.once.send(scan));
    // A GSI read is eventually consistent: half a unit each, so the third finds the index empty.
    const query = statement(`SELECT * FROM "${TABLE}"."ByStatus" WHERE status = 'new'`);
    await eddy.once.send(query);
    await eddy.once.send(query);
    const onIndex = await rejection(eddy.once.send(query));

    expect(scanned.ThrottlingReasons).toEqual([
      { reason: 'TableReadProvisionedThroughputExceeded', resource: TABLE_ARN },
    ]);
    expect(onIndex.name).toBe('ProvisionedThroughputExceededException');
    expect(onIndex.message).toBe(ThrottleMessages.provisionedIndex);
    expect(onIndex.ThrottlingReasons).toEqual([
      { reason: 'IndexReadProvisionedThroughputExceeded', resource: INDEX_ARN },
    ]);
  });

  it('lets a client with the SDK default retries recover from a throttled statement', async () => {
    await eddy.once.send(statement(`INSERT INTO "${TABLE}" VALUE {'pk': 'a'}`));

    await eddy.retrying.send(statement(`INSERT INTO "${TABLE}" VALUE {'pk': 'b'}`));

    expect(eddy.retries[0]?.error).toBe('ProvisionedThroughputExceededException');
    expect(await stored('b')).toEqual({ pk: { S: 'b' } });
  });
});

describe('ExecuteStatement on an on-demand table with a maximum', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer();
    await eddy.once.send(pkTable(TABLE, { onDemand: { MaxWriteRequestUnits: 1 } }));
  });
  afterEach(() => eddy.close());

  it('throttles past OnDemandThroughput with ThrottlingException and TableWriteMaxOnDemandThroughputExceeded', async () => {
    await eddy.once.send(statement(`INSERT INTO "${TABLE}" VALUE {'pk': 'a'}`));

    const error = await rejection(eddy.once.send(statement(`INSERT INTO "${TABLE}" VALUE {'pk': 'b'}`)));

    expect(error.name).toBe('ThrottlingException');
    expect(error.throttlingReasons).toEqual([
      { reason: 'TableWriteMaxOnDemandThroughputExceeded', resource: TABLE_ARN },
    ]);
  });
});

describe('BatchExecuteStatement on a table of 10 RCU and 10 WCU', () => {
  let eddy: CapacityServer;
  beforeEach(async () => {
    eddy = await startCapacityServer({ mode: 'enforce', burstSeconds: 0 });
    await eddy.once.send(pkTable(TABLE, [10, 10]));
  });
  afterEach(() => eddy.close());

  const inserts = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      Statement: `INSERT INTO "${TABLE}" VALUE {'pk': 'item-${from + index}'}`,
    }));
  const throttled = {
    Error: { Code: 'ProvisionedThroughputExceeded', Message: ThrottleMessages.provisionedTable },
    TableName: TABLE,
  };

  it('answers the statements past the write capacity with a ProvisionedThroughputExceeded Error and writes only the others', async () => {
    const output = await eddy.once.send(new BatchExecuteStatementCommand({ Statements: inserts(0, 12) }));

    expect(output.Responses?.slice(0, 10)).toEqual(Array(10).fill({ TableName: TABLE }));
    expect(output.Responses?.slice(10)).toEqual([throttled, throttled]);
    await eddy.clock.advance('1s');
    const count = eddy.engine.execute('Scan', { TableName: TABLE, Select: 'COUNT' }) as { Count: number };
    expect(count.Count).toBe(10);
  });

  it('answers HTTP 200 with an Error on each statement when none can be written', async () => {
    await eddy.once.send(new BatchExecuteStatementCommand({ Statements: inserts(0, 10) }));

    const output = await eddy.once.send(new BatchExecuteStatementCommand({ Statements: inserts(10, 2) }));

    expect(output.Responses).toEqual([throttled, throttled]);
  });

  it('answers the reads past the read capacity with a ProvisionedThroughputExceeded Error', async () => {
    const reads = Array.from({ length: 11 }, (_, index) => ({
      Statement: `SELECT * FROM "${TABLE}" WHERE pk = 'item-${index}'`,
      ConsistentRead: true,
    }));

    const output = await eddy.once.send(new BatchExecuteStatementCommand({ Statements: reads }));

    expect(output.Responses?.slice(0, 10)).toEqual(Array(10).fill({ TableName: TABLE }));
    expect(output.Responses?.[10]).toEqual(throttled);
  });
});
