import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine.js';
import type { EddyServer } from '../../infra/host/server.js';
import { jsonHeaders, type RawResponse, send, startServer } from './rawHttp.js';

// Issue 16 item 4: nesting deep enough to overflow a recursive walk (1,762 levels did) answers
// the service's 400, never a 500, wherever request data can nest. The nesting limit and its
// message (32 levels) are docs/dynamodb.md §2.1.5; the rest of the request is ignored as usual.
const DEPTH = 20_000;
const NESTING =
  'Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit';

let server: EddyServer;
let url: string;
let internalErrors: unknown[];
beforeAll(async () => {
  internalErrors = [];
  const engine = new Engine({ onInternalError: (error) => internalErrors.push(error) });
  ({ server, url } = await startServer({ engine }));
  await call('CreateTable', {
    TableName: 'Deep',
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
});
afterAll(() => server.close());
beforeEach(() => {
  internalErrors.length = 0;
});

function call(operation: string, input: unknown): Promise<RawResponse> {
  const body = typeof input === 'string' ? input : JSON.stringify(input);
  return send(url, { headers: jsonHeaders(`DynamoDB_20120810.${operation}`), body });
}

/** `{"L":[{"L":[ … {"S":"x"} … ]}]}`, `levels` AttributeValues deep, as JSON text. */
function deepList(levels: number): string {
  return `${'{"L":['.repeat(levels - 1)}{"S":"x"}${']}'.repeat(levels - 1)}`;
}
function deepMap(levels: number): string {
  return `${'{"M":{"a":'.repeat(levels - 1)}{"S":"x"}${'}}'.repeat(levels - 1)}`;
}
/** Plain JSON arrays, `levels` deep: what a member the service ignores may hold. */
function deepArray(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

const KEY = '{"id":{"S":"k"}}';

/** Where an AttributeValue can nest, each as [operation, body with `VALUE` in it]. */
const ATTRIBUTE_VALUE_PLACES: [string, string, string][] = [
  ['Item', 'PutItem', '{"TableName":"Deep","Item":{"id":{"S":"k"},"v":VALUE}}'],
  ['Key', 'GetItem', '{"TableName":"Deep","Key":{"id":VALUE}}'],
  [
    'ExpressionAttributeValues',
    'DeleteItem',
    `{"TableName":"Deep","Key":${KEY},"ConditionExpression":"v = :v","ExpressionAttributeValues":{":v":VALUE}}`,
  ],
  ['ExclusiveStartKey', 'Scan', '{"TableName":"Deep","ExclusiveStartKey":{"id":VALUE}}'],
  ['Expected', 'PutItem', `{"TableName":"Deep","Item":${KEY},"Expected":{"v":{"Value":VALUE}}}`],
  [
    'ScanFilter',
    'Scan',
    '{"TableName":"Deep","ScanFilter":{"v":{"ComparisonOperator":"EQ","AttributeValueList":[VALUE]}}}',
  ],
  [
    'AttributeUpdates',
    'UpdateItem',
    `{"TableName":"Deep","Key":${KEY},"AttributeUpdates":{"v":{"Value":VALUE}}}`,
  ],
  [
    'BatchWriteItem',
    'BatchWriteItem',
    '{"RequestItems":{"Deep":[{"PutRequest":{"Item":{"id":{"S":"k"},"v":VALUE}}}]}}',
  ],
  ['BatchGetItem', 'BatchGetItem', '{"RequestItems":{"Deep":{"Keys":[{"id":VALUE}]}}}'],
  [
    'TransactWriteItems',
    'TransactWriteItems',
    '{"TransactItems":[{"Put":{"TableName":"Deep","Item":{"id":{"S":"k"},"v":VALUE}}}]}',
  ],
  [
    'TransactGetItems',
    'TransactGetItems',
    '{"TransactItems":[{"Get":{"TableName":"Deep","Key":{"id":VALUE}}}]}',
  ],
];

describe('deeply nested requests over HTTP', () => {
  it.each(ATTRIBUTE_VALUE_PLACES)(
    `%s: ${DEPTH}-level lists and maps answer the same 400 as 33 levels`,
    async (_place, operation, template) => {
      for (const deep of [deepList, deepMap]) {
        const justTooDeep = await call(operation, template.replace('VALUE', deep(33)));
        const farTooDeep = await call(operation, template.replace('VALUE', deep(DEPTH)));
        expect(justTooDeep.status).toBe(400);
        expect(justTooDeep.text).toContain(NESTING);
        expect({ status: farTooDeep.status, body: farTooDeep.json }).toEqual({
          status: 400,
          body: justTooDeep.json,
        });
      }
      expect(internalErrors).toEqual([]);
    },
  );

  it.each([
    ['PutItem', `{"TableName":"Deep","Item":${KEY},"Unknown":ARRAY}`],
    ['PutItem', '{"TableName":"Deep","Item":{"id":{"S":"k","unknown":ARRAY}}}'],
    ['BatchGetItem', '{"RequestItems":{"Deep":{"Keys":[{"id":{"S":"k","unknown":ARRAY}}]}}}'],
    [
      'TransactWriteItems',
      `{"TransactItems":[{"Put":{"TableName":"Deep","Item":${KEY},"Unknown":ARRAY}}],"Unknown":ARRAY}`,
    ],
    ['CreateTable', '{"TableName":"Deep","KeySchema":[{"AttributeName":"a","Unknown":ARRAY},{},{}]}'],
  ])(`%s ignores a member holding arrays nested ${DEPTH} deep`, async (operation, template) => {
    const response = await call(operation, template.replaceAll('ARRAY', deepArray(DEPTH)));
    expect(response.status).toBeLessThan(500);
    expect(response.status === 200 || response.json?.__type !== undefined).toBe(true);
    expect(internalErrors).toEqual([]);
  });

  it('answers expressions nested past the parser’s depth with a 400', async () => {
    const parens = `${'('.repeat(2040)}v = :v${')'.repeat(2040)}`;
    const calls = `size(${'f('.repeat(1500)}v${')'.repeat(1501)}) = :v`;
    for (const [member, expression] of [
      ['ConditionExpression', parens],
      ['ConditionExpression', calls],
    ] as const) {
      const response = await call('DeleteItem', {
        TableName: 'Deep',
        Key: { id: { S: 'k' } },
        [member]: expression,
        ExpressionAttributeValues: { ':v': { S: 'x' } },
      });
      expect(response.status).toBe(400);
      expect(response.json?.__type).toBe('com.amazon.coral.validate#ValidationException');
    }
    const update = await call('UpdateItem', {
      TableName: 'Deep',
      Key: { id: { S: 'k' } },
      UpdateExpression: `SET v = ${'('.repeat(2040)}:v${')'.repeat(2040)}`,
      ExpressionAttributeValues: { ':v': { S: 'x' } },
    });
    expect(update.json).toEqual({
      __type: 'com.amazon.coral.validate#ValidationException',
      message:
        '1 validation error detected: Invalid UpdateExpression: The expression has redundant parentheses;',
    });
    expect(internalErrors).toEqual([]);
  });
});
