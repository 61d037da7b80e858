import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../infra/cli/program.js';
import { mergeShards } from '../../infra/replay/mergeShards.js';
import { runProgram } from '../helpers/command.js';
import {
  eddy,
  itemOf,
  ORDERS,
  readLines,
  removeTempDirs,
  type Served,
  serveStack,
  tempDir,
  writeOrders,
} from './helpers.js';

// `eddy record` against a real eddy over loopback HTTP, read back through the real AWS SDK.

let served: Served;
let directory: string;
let written: Map<string, string[]>;
/** What a Lambda handler bound to the stream received: the records the file must hold. */
const delivered: DynamoDBRecord[] = [];

beforeAll(async () => {
  directory = tempDir('record');
  served = await serveStack(
    {
      tables: [ORDERS],
      functions: {
        tap: { handler: 'unused.mjs', events: [{ stream: { table: 'Orders', BatchSize: 100 } }] },
      },
    },
    {
      handlers: {
        tap: ((event: { Records: DynamoDBRecord[] }) => {
          delivered.push(...event.Records.map((record) => structuredClone(record)));
        }) as never,
      },
    },
  );
  written = await writeOrders(served.stack);
  await served.stack.settled();
});

afterAll(async () => {
  await served.stack.close();
  removeTempDirs();
});

describe('eddy record', () => {
  it('writes every record as the Lambda record a handler receives, one JSON line each', async () => {
    const file = join(directory, 'all.jsonl');
    const run = await eddy(
      directory,
      'record',
      '--table',
      'Orders',
      '--out',
      'all.jsonl',
      '--endpoint',
      served.url,
    );
    expect(run.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(run.err).toEqual([
      expect.stringMatching(/^recorded 11 records from \d+ shards of arn:aws:dynamodb:.+ to all\.jsonl$/),
    ]);
    // Byte for byte what the mapping delivered: member order, images, eventSourceARN included.
    const byId = new Map(delivered.map((record) => [record.eventID, JSON.stringify(record)]));
    expect(byId.size).toBe(11);
    for (const line of lines) expect(line).toBe(byId.get(JSON.parse(line).eventID));
  });

  it('keeps each item in write order and orders the file by creation time, then sequence number', async () => {
    const records = readLines(join(directory, 'all.jsonl'));
    const perItem = new Map<string, string[]>();
    for (const record of records)
      perItem.set(itemOf(record), [...(perItem.get(itemOf(record)) ?? []), record.eventName!]);
    expect(perItem).toEqual(written);
    for (let index = 1; index < records.length; index++) {
      const [previous, current] = [records[index - 1]!.dynamodb!, records[index]!.dynamodb!];
      const order =
        previous.ApproximateCreationDateTime! - current.ApproximateCreationDateTime! ||
        Number(BigInt(previous.SequenceNumber!) - BigInt(current.SequenceNumber!));
      expect(order).toBeLessThan(0);
    }
    // The writes spread over several shards, so the merge across shards was exercised.
    const stream = served.stack.changeLog.tableStream('000000000000', 'us-east-1', 'Orders')!;
    expect(stream.shards.filter((shard) => shard.size > 0).length).toBeGreaterThan(1);
  });

  it('stops at --limit with the first records of the recording, and prints to stdout with --out -', async () => {
    const run = await eddy(directory, 'record', '-t', 'Orders', '--limit', '3', '--endpoint', served.url);
    expect(run.code).toBe(0);
    const all = readLines(join(directory, 'all.jsonl'));
    expect(run.out.map((line) => JSON.parse(line))).toEqual(all.slice(0, 3));
    expect(run.err[0]).toMatch(/^recorded 3 records from \d+ shards? of .+ \(limit\)$/);
  });

  it('follows the stream from its newest record: only writes made while recording are captured', async () => {
    const recording = eddy(
      directory,
      'record',
      '--table',
      'Orders',
      '--follow',
      '--limit',
      '2',
      '--poll-interval',
      '10ms',
      '--out',
      'follow.jsonl',
      '--endpoint',
      served.url,
    );
    // Writes go on until the recording has its two records: the ones made before it took its
    // LATEST iterators are not in it; the two it holds are in write order.
    let finished = false;
    void recording.then(() => {
      finished = true;
    });
    const client = served.stack.client();
    for (let index = 0; !finished && index < 400; index++) {
      await client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: `x${index}` }, sk: { N: '9' } } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    client.destroy();
    const run = await recording;
    expect(run.code).toBe(0);
    const records = readLines(join(directory, 'follow.jsonl'));
    expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'INSERT']);
    const [first, second] = records.map((record) => Number(record.dynamodb!.Keys!.pk!.S!.slice(1)));
    expect(second).toBeGreaterThan(first!);
  });

  it('shows a live count on the terminal while following, ended before the summary line', async () => {
    const events: string[] = [];
    let frames = '';
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
    terminal.on('data', (chunk: Buffer) => {
      frames += chunk.toString();
      events.push('bar');
    });
    const recording = runProgram(
      (io) =>
        createProgram({
          ...io,
          progress: terminal as unknown as NodeJS.WriteStream,
          printError: (line) => {
            events.push(`err: ${line}`);
            io.printError(line);
          },
        }),
      [
        'record',
        '--table',
        'Orders',
        '--follow',
        '--limit',
        '3',
        '--poll-interval',
        '10ms',
        '--out',
        'counted.jsonl',
        '--endpoint',
        served.url,
      ],
      directory,
    );
    let finished = false;
    void recording.then(() => {
      finished = true;
    });
    const client = served.stack.client();
    for (let index = 0; !finished && index < 400; index++) {
      await client.send(
        new PutItemCommand({ TableName: 'Orders', Item: { pk: { S: `c${index}` }, sk: { N: '9' } } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    client.destroy();
    expect((await recording).code).toBe(0);
    expect(frames).toMatch(/recording 3 records \| \d+s/);
    expect(events.at(-1)).toMatch(
      /^err: recorded 3 records from \d+ shards? of .+ to counted\.jsonl \(limit\)$/,
    );
  });

  it('reports a table without a stream, and an endpoint where nothing answers', async () => {
    const missing = await eddy(directory, 'record', '--table', 'Nope', '--endpoint', served.url);
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/^eddy record: .*Nope/);
    const usage = await eddy(directory, 'record', '--endpoint', served.url);
    expect(usage).toMatchObject({
      code: 2,
      err: ['eddy record: name the stream: --table <name> or --stream-arn <arn>'],
    });
  });
});

describe('mergeShards', () => {
  const record = (id: string, seconds: number, sequence: string) =>
    ({
      eventID: id,
      dynamodb: { ApproximateCreationDateTime: seconds, SequenceNumber: sequence },
    }) as DynamoDBRecord;

  it('keeps shard order, puts a child after its parent, and otherwise goes by time then sequence number', () => {
    const a1 = record('a1', 1, '100');
    const a2 = record('a2', 3, '300');
    const b1 = record('b1', 2, '200');
    const c1 = record('c1', 2, '400');
    const b2 = record('b2', 2, '90');
    const merged = mergeShards([
      { shardId: 'A', parentShardId: undefined, records: [a1, a2] },
      { shardId: 'C', parentShardId: 'A', records: [c1] },
      { shardId: 'B', parentShardId: undefined, records: [b1, b2] },
    ]);
    // b2 has the lowest sequence number of its second, yet stays after b1 (shard order).
    expect(merged.map((each) => each.eventID)).toEqual(['a1', 'b1', 'b2', 'a2', 'c1']);
  });
});
