import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { EddyConfig, StreamBindingConfig, TableConfig } from '../../infra/config.js';
import { parseRecords } from '../../infra/replay/recordFile.js';
import { replay } from '../../infra/replay/replay.js';

// The replay API with in-process handlers: virtual time, view types, identities, hand-made files.

const T = 1_767_225_600; // 2026-01-01T00:00:00Z, epoch seconds

const table = (viewType: string): TableConfig => ({
  TableName: 'Orders',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  BillingMode: 'PAY_PER_REQUEST',
  StreamSpecification: { StreamEnabled: true, StreamViewType: viewType as never },
});

function configOf(settings: Omit<StreamBindingConfig, 'table'>, viewType = 'NEW_AND_OLD_IMAGES'): EddyConfig {
  return {
    tables: [table(viewType)],
    streams: { shardCount: 1 },
    functions: { fn: { handler: 'unused.mjs', events: [{ stream: { table: 'Orders', ...settings } }] } },
  };
}

/** A record as a hand-written file may hold it: only what a handler reads. */
function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', pk: string, seconds?: number, extra = {}) {
  const item = { pk: { S: pk }, n: { N: '1' } };
  return {
    eventName,
    dynamodb: {
      ...(seconds === undefined ? {} : { ApproximateCreationDateTime: seconds }),
      Keys: { pk: { S: pk } },
      ...(eventName === 'REMOVE' ? {} : { NewImage: item }),
      ...(eventName === 'INSERT' ? {} : { OldImage: { pk: { S: pk } } }),
    },
    ...extra,
  };
}

async function run(
  config: EddyConfig,
  records: object[],
  respond: (event: DynamoDBStreamEvent) => unknown = () => {},
) {
  const events: DynamoDBStreamEvent[] = [];
  const report = await replay({
    config,
    baseDirectory: '.',
    functionName: 'fn',
    records: parseRecords(records.map((each) => JSON.stringify(each)).join('\n'), 'events.jsonl'),
    file: 'events.jsonl',
    handler: ((event: DynamoDBStreamEvent) => {
      events.push(structuredClone(event));
      return respond(event);
    }) as never,
  });
  return { report, events };
}

describe('replay', () => {
  it('runs batching windows in virtual time, at the recorded times', async () => {
    const records = [
      record('INSERT', 'a', T),
      record('INSERT', 'b', T + 1),
      record('INSERT', 'c', T + 2),
      record('INSERT', 'd', T + 30),
    ];
    const { report, events } = await run(
      configOf({ BatchSize: 10, MaximumBatchingWindowInSeconds: 5 }),
      records,
    );
    expect(events.map((event) => event.Records.map((each) => each.dynamodb!.Keys!.pk!.S))).toEqual([
      ['a', 'b', 'c'],
      ['d'],
    ]);
    // The window opened with the first record and closed 5 s later (virtual seconds).
    expect(report.invocations.map((invocation) => invocation.at / 1000)).toEqual([T + 5, T + 35]);
    expect(report.summary.wallMs).toBeLessThan(2_000);
    expect(report.exitCode).toBe(0);
  });

  it("shows the table's view type when the records carry its images, else the recorded one", async () => {
    const full = [record('MODIFY', 'a', T, { eventSourceARN: 'arn:x' })].map((each) => ({
      ...each,
      dynamodb: { ...each.dynamodb, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }));
    const narrowed = await run(configOf({}, 'NEW_IMAGE'), full);
    expect(narrowed.report.streamViewType).toBe('NEW_IMAGE');
    expect(narrowed.events[0]!.Records[0]!.dynamodb).not.toHaveProperty('OldImage');
    expect(narrowed.report.notes).toEqual([]);
    const keysOnly = [
      {
        eventName: 'INSERT',
        dynamodb: { ApproximateCreationDateTime: T, Keys: { pk: { S: 'a' } }, StreamViewType: 'KEYS_ONLY' },
      },
    ];
    const kept = await run(configOf({}, 'NEW_AND_OLD_IMAGES'), keysOnly);
    expect(kept.report.streamViewType).toBe('KEYS_ONLY');
    expect(kept.report.notes[0]).toMatch(
      /the records are KEYS_ONLY and table Orders streams NEW_AND_OLD_IMAGES/,
    );
  });

  it('keeps the TTL identity of recorded deletes, for the handler and for filters on it', async () => {
    const ttl = { type: 'Service', principalId: 'dynamodb.amazonaws.com' };
    const records = [record('REMOVE', 'a', T), record('REMOVE', 'b', T, { userIdentity: ttl })];
    const filter = {
      Filters: [
        {
          Pattern: JSON.stringify({
            userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
          }),
        },
      ],
    };
    const { report, events } = await run(configOf({ FilterCriteria: filter }), records);
    expect(
      events
        .flatMap((event) => event.Records)
        .map((each: DynamoDBRecord) => [each.dynamodb!.Keys!.pk!.S, each.userIdentity]),
    ).toEqual([['b', ttl]]);
    expect(report.summary).toMatchObject({ filtered: 1, processed: 1 });
  });

  it("numbers hand-made records itself, and a partial failure naming the replay's numbers is retried", async () => {
    const records = [record('INSERT', 'a'), record('INSERT', 'b'), record('MODIFY', 'a')];
    let failed = false;
    const { report, events } = await run(
      configOf({ FunctionResponseTypes: ['ReportBatchItemFailures'] }),
      records,
      (event) => {
        if (failed) return {};
        failed = true;
        return { batchItemFailures: [{ itemIdentifier: event.Records[1]!.dynamodb!.SequenceNumber }] };
      },
    );
    expect(
      events.map((event) => event.Records.map((each) => `${each.eventName}:${each.dynamodb!.Keys!.pk!.S}`)),
    ).toEqual([
      ['INSERT:a', 'INSERT:b', 'MODIFY:a'],
      ['INSERT:b', 'MODIFY:a'],
    ]);
    for (const each of events[0]!.Records) {
      expect(each.eventID).toMatch(/^[0-9a-f]{32}$/);
      expect(each.dynamodb!.SequenceNumber).toMatch(/^\d{21}$/);
      expect(each.eventSourceARN).toMatch(/^arn:aws:dynamodb:us-east-1:000000000000:table\/Orders\/stream\//);
    }
    expect(report.summary).toMatchObject({ processed: 3, failed: 0, partialFailures: 1, retries: 1 });
  });

  it('replays a SAM-style event: the handler sees its short sequence numbers and answers with them', async () => {
    const messages: TableConfig = {
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'Id', AttributeType: 'N' }],
      KeySchema: [{ AttributeName: 'Id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    };
    const sam = (eventName: string, sequence: string, body: object) => ({
      eventID: `id-${sequence}`,
      eventName,
      eventVersion: '1.0',
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-west-1',
      dynamodb: {
        Keys: { Id: { N: '101' } },
        ...body,
        SequenceNumber: sequence,
        SizeBytes: 26,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: 'arn:aws:dynamodb:eu-west-1:123456789012:table/Example/stream/2015-06-27T00:48:05.899',
    });
    const first = { Message: { S: 'New item!' }, Id: { N: '101' } };
    const second = { Message: { S: 'Changed' }, Id: { N: '101' } };
    const records = [
      sam('INSERT', '111', { NewImage: first }),
      sam('MODIFY', '222', { OldImage: first, NewImage: second }),
      sam('REMOVE', '333', { OldImage: second }),
    ];
    const config: EddyConfig = {
      tables: [messages],
      functions: {
        fn: {
          handler: 'unused.mjs',
          events: [{ stream: { table: 'Orders', FunctionResponseTypes: ['ReportBatchItemFailures'] } }],
        },
      },
    };
    let failed = false;
    const { report, events } = await run(config, records, () => {
      if (failed) return undefined;
      failed = true;
      return { batchItemFailures: [{ itemIdentifier: '222' }] };
    });
    expect(events[0]!.Records.map((each) => each.dynamodb!.SequenceNumber)).toEqual(['111', '222', '333']);
    expect(events[0]!.Records[0]).toMatchObject({
      eventID: 'id-111',
      eventVersion: '1.0',
      awsRegion: 'eu-west-1',
    });
    expect(events[1]!.Records.map((each) => each.eventID)).toEqual(['id-222', 'id-333']);
    expect(report.summary).toMatchObject({ processed: 3, partialFailures: 1 });
  });

  it('names the line of a record the table cannot hold', async () => {
    const bad = {
      eventName: 'INSERT',
      dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: { pk: { S: 'a' }, n: { N: 'x' } } },
    };
    await expect(run(configOf({}), [record('INSERT', 'a', T), bad])).rejects.toThrow(
      /events\.jsonl \(line 2\): dynamodb\.NewImage\.n: .+/,
    );
    const removeWithNew = {
      ...record('REMOVE', 'a', T),
      dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: { pk: { S: 'a' } } },
    };
    await expect(run(configOf({}), [removeWithNew])).rejects.toThrow(
      'events.jsonl: a REMOVE record has no NewImage',
    );
  });
});
