import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { compileFilters } from '../../../streams/filter/compileFilters.js';
import { compilePattern } from '../../../streams/filter/compilePattern.js';
import { InvalidPatternError } from '../../../streams/filter/leafConditions.js';

/** Table tests of the Lambda filter syntax (docs/streams-and-lambda.md §3) on Lambda-event records. */

function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  newImage: Record<string, unknown> | undefined,
  options: { old?: Record<string, unknown>; ttl?: boolean } = {},
): DynamoDBRecord {
  const dynamodb: Record<string, unknown> = {
    ApproximateCreationDateTime: 1767268800,
    Keys: { id: { S: 'k1' } },
  };
  if (newImage) dynamodb.NewImage = { id: { S: 'k1' }, ...newImage };
  if (options.old) dynamodb.OldImage = { id: { S: 'k1' }, ...options.old };
  dynamodb.SequenceNumber = '100000000000000000001';
  dynamodb.SizeBytes = 26;
  dynamodb.StreamViewType = 'NEW_AND_OLD_IMAGES';
  const result: DynamoDBRecord = {
    eventID: 'e2fd9c34eff2d779b297b26f5fef4206',
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: dynamodb as DynamoDBRecord['dynamodb'],
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/2026-01-01T00:00:00.000',
  };
  if (options.ttl) result.userIdentity = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };
  return result;
}

const active = record('INSERT', { status: { S: 'ACTIVE' }, count: { N: '42' } });
const inactive = record('MODIFY', { status: { S: 'inactive' }, count: { N: '101' } }, { old: {} });
const removed = record('REMOVE', undefined, { old: { status: { S: 'ACTIVE' } } });
const ttlRemoval = record('REMOVE', undefined, { old: { status: { S: 'x' } }, ttl: true });
const withNull = record('INSERT', { status: { NULL: true }, note: { S: '' } });
const withSets = record('INSERT', {
  tags: { SS: ['red', 'blue'] },
  Organizations: { L: [{ S: 'acme' }, { S: 'globex' }] },
  region: { S: 'us-west-2' },
  file: { S: 'photo.PNG' },
});
const records = { active, inactive, removed, ttlRemoval, withNull, withSets };
type Name = keyof typeof records;

const cases: [statement: string, pattern: string, matches: Name[]][] = [
  [
    'docs/streams-and-lambda.md §3.3 eventName OR list',
    '{"eventName":["INSERT","MODIFY"]}',
    ['active', 'inactive', 'withNull', 'withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.3 eventName AND eventSource',
    '{"eventName":["INSERT"],"eventSource":["aws:dynamodb"]}',
    ['active', 'withNull', 'withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.14 the TTL filter on userIdentity',
    '{"userIdentity":{"type":["Service"],"principalId":["dynamodb.amazonaws.com"]}}',
    ['ttlRemoval'],
  ],
  [
    'docs/streams-and-lambda.md §3.4 typed form matches',
    '{"dynamodb":{"NewImage":{"status":{"S":["ACTIVE"]}}}}',
    ['active'],
  ],
  [
    'docs/streams-and-lambda.md §3.4 leaving out the type never matches',
    '{"dynamodb":{"NewImage":{"status":["ACTIVE"]}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.5 NewImage AND OldImage',
    '{"dynamodb":{"NewImage":{"status":{"S":["inactive"]}},"OldImage":{"id":{"S":["k1"]}}}}',
    ['inactive'],
  ],
  [
    'docs/streams-and-lambda.md §3.5 every named field must exist',
    '{"eventName":["REMOVE"],"dynamodb":{"NewImage":{"id":{"S":["k1"]}}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.8 exact match is case sensitive',
    '{"dynamodb":{"NewImage":{"status":{"S":["active"]}}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.6 equals-ignore-case',
    '{"dynamodb":{"NewImage":{"status":{"S":[{"equals-ignore-case":"active"}]}}}}',
    ['active'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 prefix',
    '{"dynamodb":{"NewImage":{"region":{"S":[{"prefix":"us-"}]}}}}',
    ['withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 suffix (case sensitive)',
    '{"dynamodb":{"NewImage":{"file":{"S":[{"suffix":".png"}]}}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.6 suffix',
    '{"dynamodb":{"NewImage":{"file":{"S":[{"suffix":".PNG"}]}}}}',
    ['withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 anything-but list',
    '{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":["ACTIVE","x"]}]}}}}',
    ['inactive'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 anything-but single value',
    '{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":"inactive"}]}}}}',
    ['active'],
  ],
  [
    'docs/streams-and-lambda.md §3.9 numeric never matches N strings; anything-but does',
    '{"dynamodb":{"NewImage":{"count":{"N":[{"numeric":[">",100]},{"anything-but":"101"}]}}}}',
    ['active'],
  ],
  [
    'docs/streams-and-lambda.md §3.9 numeric on N never matches',
    '{"dynamodb":{"NewImage":{"count":{"N":[{"numeric":[">",0]}]}}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.9 numeric on ApproximateCreationDateTime',
    '{"dynamodb":{"ApproximateCreationDateTime":[{"numeric":[">",0]}]}}',
    ['active', 'inactive', 'removed', 'ttlRemoval', 'withNull', 'withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 numeric equals',
    '{"dynamodb":{"SizeBytes":[{"numeric":["=",26]}]}}',
    Object.keys(records) as Name[],
  ],
  [
    'docs/streams-and-lambda.md §3.6 numeric range',
    '{"dynamodb":{"SizeBytes":[{"numeric":[">",10,"<=",20]}]}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.8 numbers by text: 26',
    '{"dynamodb":{"SizeBytes":[26]}}',
    Object.keys(records) as Name[],
  ],
  [
    'docs/streams-and-lambda.md §3.8 numbers by text: 26.0 is not 26',
    '{"dynamodb":{"SizeBytes":[26.0]}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.8 numbers by text: 2.6e1 is not 26',
    '{"dynamodb":{"SizeBytes":[2.6e1]}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.6 exists true',
    '{"dynamodb":{"NewImage":{"region":{"S":[{"exists":true}]}}}}',
    ['withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.10 exists true on an object never matches',
    '{"dynamodb":{"NewImage":{"Organizations":[{"exists":true}]}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.10 exists true on the list leaves',
    '{"dynamodb":{"NewImage":{"Organizations":{"L":{"S":[{"exists":true}]}}}}}',
    ['withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 exists false on a leaf',
    '{"dynamodb":{"NewImage":{"region":{"S":[{"exists":false}]}}}}',
    ['active', 'inactive', 'removed', 'ttlRemoval', 'withNull'],
  ],
  [
    'docs/streams-and-lambda.md §3.11 exists false on an intermediate node matches even when present',
    '{"dynamodb":{"NewImage":{"status":[{"exists":false}]}}}',
    Object.keys(records) as Name[],
  ],
  ['docs/streams-and-lambda.md §3.12 [null] matches JSON null only', '{"userIdentity":[null]}', []],
  [
    'docs/streams-and-lambda.md §3.12 NULL attribute',
    '{"dynamodb":{"NewImage":{"status":{"NULL":[true]}}}}',
    ['withNull'],
  ],
  [
    'docs/streams-and-lambda.md §3.12 empty string',
    '{"dynamodb":{"NewImage":{"note":{"S":[""]}}}}',
    ['withNull'],
  ],
  [
    'docs/streams-and-lambda.md §3.12 [null] does not match ""',
    '{"dynamodb":{"NewImage":{"note":{"S":[null]}}}}',
    [],
  ],
  [
    'docs/streams-and-lambda.md §3.13 SS matches if any element matches',
    '{"dynamodb":{"NewImage":{"tags":{"SS":["blue"]}}}}',
    ['withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.13 L of maps: any element',
    '{"dynamodb":{"NewImage":{"Organizations":{"L":{"S":["globex"]}}}}}',
    ['withSets'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 $or across fields',
    '{"$or":[{"eventName":["REMOVE"]},{"dynamodb":{"NewImage":{"status":{"S":["ACTIVE"]}}}}]}',
    ['active', 'removed', 'ttlRemoval'],
  ],
  [
    'docs/streams-and-lambda.md §3.6 nested $or AND a sibling field',
    '{"eventName":["REMOVE"],"dynamodb":{"$or":[{"OldImage":{"status":{"S":["ACTIVE"]}}},{"Keys":{"id":{"S":["zz"]}}}]}}',
    ['removed'],
  ],
  ['inherited names are not fields', '{"constructor":[{"exists":true}]}', []],
];

describe('filter patterns (docs/streams-and-lambda.md §3)', () => {
  it.each(cases)('%s', (_statement, pattern, expected) => {
    const matches = compilePattern(pattern);
    const matched = (Object.keys(records) as Name[]).filter((name) => matches(records[name]));
    expect(matched).toEqual(expected);
  });

  it('docs/streams-and-lambda.md §3.1 ORs the filters of a FilterCriteria; none means deliver everything', () => {
    const deliver = compileFilters(['{"eventName":["INSERT"]}', '{"eventName":["REMOVE"]}'])!;
    expect([active, inactive, removed].map(deliver)).toEqual([true, false, true]);
    expect(compileFilters([])).toBeUndefined();
  });
});

describe('invalid patterns (docs/streams-and-lambda.md §3.2, §3.7, §6.8)', () => {
  const invalid: [string, string][] = [
    ['not JSON', 'single-string'],
    ['recorded bad JSON', '[{"eventName": ["INSERT"=123}]'],
    ['a list at the top', '[{"eventName":["INSERT"]}]'],
    ['a bare value instead of a list', '{"eventName":"INSERT"}'],
    ['an empty list', '{"eventName":[]}'],
    ['an empty object', '{"dynamodb":{}}'],
    ['an empty pattern', '{}'],
    ['nested lists', '{"eventName":[["INSERT"]]}'],
    ['an unknown operator', '{"eventName":[{"matches":"x"}]}'],
    ['wildcard (EventBridge only)', '{"eventName":[{"wildcard":"IN*"}]}'],
    ['cidr (EventBridge only)', '{"ip":[{"cidr":"10.0.0.0/24"}]}'],
    ['anything-but prefix (EventBridge only)', '{"eventName":[{"anything-but":{"prefix":"IN"}}]}'],
    ['anything-but suffix', '{"eventName":[{"anything-but":{"suffix":"T"}}]}'],
    ['anything-but equals-ignore-case', '{"eventName":[{"anything-but":{"equals-ignore-case":"x"}}]}'],
    ['prefix with equals-ignore-case', '{"eventName":[{"prefix":{"equals-ignore-case":"in"}}]}'],
    ['suffix with equals-ignore-case', '{"eventName":[{"suffix":{"equals-ignore-case":"rt"}}]}'],
    ['two operators in one object', '{"eventName":[{"prefix":"I","suffix":"T"}]}'],
    ['exists with a string', '{"eventName":[{"exists":"true"}]}'],
    ['numeric with a string bound', '{"n":[{"numeric":[">","1"]}]}'],
    ['numeric with two lower bounds', '{"n":[{"numeric":[">",1,">=",2]}]}'],
    ['numeric with an unknown operator', '{"n":[{"numeric":["!=",1]}]}'],
    ['numeric = in a range', '{"n":[{"numeric":["=",1,"<",2]}]}'],
    ['$or with one alternative', '{"$or":[{"eventName":["INSERT"]}]}'],
    ['$or not a list', '{"$or":{"eventName":["INSERT"]}}'],
    ['anything-but empty list', '{"eventName":[{"anything-but":[]}]}'],
  ];
  it.each(invalid)('rejects %s', (_name, pattern) => {
    expect(() => compilePattern(pattern)).toThrow(InvalidPatternError);
  });
});
