import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInvokeCommand } from '../../infra/cli/commands/invoke.js';
import type { EddyConfig } from '../../infra/config.js';
import type { ReplayReport } from '../../infra/replay/replay.js';
import {
  eddy,
  itemOf,
  ORDERS,
  readLines,
  removeTempDirs,
  serveStack,
  tempDir,
  writeOrders,
} from './helpers.js';

// Record from a real eddy, then `eddy invoke` the records through functions of a config.

const HANDLERS = join(import.meta.dirname, 'fixtures', 'handlers.mjs');
const DLQ = 'arn:aws:sqs:us-east-1:000000000000:orders-dlq';
let directory: string;
let recorded: DynamoDBRecord[];

function writeConfig(name: string, seen: string, extra: Record<string, string> = {}): string {
  const config: EddyConfig = {
    tables: [ORDERS],
    functions: {
      onOrder: {
        handler: HANDLERS,
        environment: { SEEN_FILE: seen, FAIL_ONCE_PK: 'b', ...extra },
        events: [
          {
            stream: {
              table: 'Orders',
              BatchSize: 2,
              FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'] }) }] },
              FunctionResponseTypes: ['ReportBatchItemFailures'],
            },
          },
        ],
      },
      alwaysFails: {
        handler: HANDLERS,
        exportName: 'alwaysFails',
        environment: { FAILS_SEEN_FILE: seen },
        events: [
          {
            stream: {
              table: 'Orders',
              MaximumRetryAttempts: 2,
              DestinationConfig: { OnFailure: { Destination: DLQ } },
            },
          },
        ],
      },
    },
  };
  const file = join(directory, name);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

const events = (seen: string) => readLines<DynamoDBStreamEvent>(seen);

beforeAll(async () => {
  directory = tempDir('invoke');
  const { stack, url } = await serveStack({ tables: [ORDERS] });
  try {
    await writeOrders(stack);
    const run = await eddy(
      directory,
      'record',
      '--table',
      'Orders',
      '--out',
      'orders.jsonl',
      '--endpoint',
      url,
    );
    expect(run.code).toBe(0);
  } finally {
    await stack.close();
  }
  recorded = readLines(join(directory, 'orders.jsonl'));
});

afterAll(removeTempDirs);

describe('eddy invoke', () => {
  it('delivers the filtered records in per-item order, in batches of at most BatchSize, as recorded', async () => {
    const seen = join(directory, 'seen-order.jsonl');
    const config = writeConfig('order.config.json', seen);
    const run = await eddy(directory, 'invoke', 'onOrder', '--events', 'orders.jsonl', '--config', config);
    // stderr holds only the function's log, START ... REPORT per invocation, as Lambda writes it.
    expect(run.err.every((line) => line.startsWith('onOrder | '))).toBe(true);
    expect(run.code).toBe(0);
    const batches = events(seen);
    expect(run.err.filter((line) => line.startsWith('onOrder | START RequestId: '))).toHaveLength(
      batches.length,
    );
    expect(batches.every((event) => event.Records.length >= 1 && event.Records.length <= 2)).toBe(true);
    // The REMOVE records were filtered out; everything else arrived, each item in recorded order.
    const kept = recorded.filter((record) => record.eventName !== 'REMOVE');
    const firstDeliveries = new Map<string, DynamoDBRecord>();
    for (const record of batches.flatMap((event) => event.Records))
      if (!firstDeliveries.has(record.eventID!)) firstDeliveries.set(record.eventID!, record);
    expect([...firstDeliveries.keys()].sort()).toEqual(kept.map((record) => record.eventID).sort());
    const order = (records: DynamoDBRecord[]) => {
      const perItem = new Map<string, string[]>();
      for (const record of records)
        perItem.set(itemOf(record), [...(perItem.get(itemOf(record)) ?? []), record.eventID!]);
      return perItem;
    };
    expect(order([...firstDeliveries.values()])).toEqual(order(kept));
    // The handler sees the recorded records themselves: ids, sequence numbers, times, images.
    const byId = new Map(recorded.map((record) => [record.eventID, JSON.stringify(record)]));
    for (const record of firstDeliveries.values())
      expect(JSON.stringify(record)).toBe(byId.get(record.eventID));
    expect(run.out.at(-4)).toMatch(
      /^onOrder <- Orders \(NEW_AND_OLD_IMAGES\) BatchSize=2 FilterCriteria=1 pattern/,
    );
    expect(run.out.at(-3)).toBe('11 records: 2 filtered, 9 processed, 0 failed');
  });

  it('retries from a partially failed record (ReportBatchItemFailures) until it succeeds', async () => {
    const seen = join(directory, 'seen-partial.jsonl');
    const config = writeConfig('partial.config.json', seen);
    const run = await eddy(directory, 'invoke', 'onOrder', '--events', 'orders.jsonl', '--config', config);
    expect(run.code).toBe(0);
    const failedB = recorded.find(
      (record) => record.dynamodb!.Keys!.pk!.S === 'b' && record.eventName === 'INSERT',
    )!;
    const deliveriesOfB = events(seen).filter((event) =>
      event.Records.some((record) => record.eventID === failedB.eventID),
    );
    expect(deliveriesOfB).toHaveLength(2);
    const partial = run.out.find((line) => /\bpartial\b/.test(line))!;
    expect(partial).toContain(`failed items: ${failedB.dynamodb!.SequenceNumber}`);
    expect(run.out.some((line) => /\(retry\)\s+ok\b/.test(line))).toBe(true);
    expect(run.out).toContain('11 records: 2 filtered, 9 processed, 0 failed');
  });

  it('sends the batches of a function that always fails to its on-failure destination, and exits 1', async () => {
    const seen = join(directory, 'seen-fails.jsonl');
    const config = writeConfig('fails.config.json', seen);
    const run = await eddy(
      directory,
      'invoke',
      'alwaysFails',
      '--events',
      'orders.jsonl',
      '--config',
      config,
      '--json',
    );
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out.join('\n')) as ReplayReport;
    expect(report.summary).toMatchObject({ records: 11, processed: 0, failed: 11, filtered: 0 });
    expect(report.destinations.length).toBeGreaterThan(0);
    const recordedSequences = new Set(recorded.map((record) => record.dynamodb!.SequenceNumber));
    let discarded = 0;
    for (const delivery of report.destinations) {
      expect(delivery.destination).toBe(DLQ);
      expect(delivery.record.requestContext).toMatchObject({
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: 3,
      });
      const info = delivery.record.DDBStreamBatchInfo;
      expect(recordedSequences.has(info.startSequenceNumber)).toBe(true);
      expect(recordedSequences.has(info.endSequenceNumber)).toBe(true);
      expect(info.streamArn).toBe(recorded[0]!.eventSourceARN);
      discarded += info.batchSize;
    }
    expect(discarded).toBe(11);
    // Each batch: the first attempt and two retries, the backoff passed in virtual time.
    expect(events(seen)).toHaveLength(3 * report.destinations.length);
    expect(report.summary.wallMs).toBeLessThan(5_000);
  });

  it('prints the destination in the text summary', async () => {
    const config = writeConfig('fails-text.config.json', join(directory, 'seen-fails-text.jsonl'));
    const run = await eddy(
      directory,
      'invoke',
      'alwaysFails',
      '--events',
      'orders.jsonl',
      '--config',
      config,
    );
    expect(run.code).toBe(1);
    expect(
      run.out.some(
        (line) =>
          line.startsWith(`on-failure ${DLQ}: `) && line.includes('RetryAttemptsExhausted, 3 attempts'),
      ),
    ).toBe(true);
    expect(run.out).toContain('11 records: 0 filtered, 0 processed, 11 failed');
  });

  it('reads a Lambda event file ({"Records": [...]}) as well as JSON lines', async () => {
    writeFileSync(join(directory, 'event.json'), JSON.stringify({ Records: recorded }, null, 2));
    const seen = join(directory, 'seen-event.jsonl');
    const config = writeConfig('event.config.json', seen, { FAIL_ONCE_PK: 'none' });
    const run = await eddy(directory, 'invoke', 'onOrder', '--events', 'event.json', '--config', config);
    expect(run.code).toBe(0);
    expect(run.out).toContain('11 records: 2 filtered, 9 processed, 0 failed');
    expect(events(seen).flatMap((event) => event.Records)).toHaveLength(9);
  });

  it('reads standard input with --events -', async () => {
    const out: string[] = [];
    let code = -1;
    const io = {
      print: (line: string) => out.push(line),
      printError: () => {},
      cwd: directory,
      exit: (c: number) => (code = c),
    };
    const program = new Command('eddy').exitOverride();
    addInvokeCommand(program, io, {
      readStdin: async () => JSON.stringify({ Records: recorded.slice(0, 2) }),
    });
    const config = writeConfig('stdin.config.json', join(directory, 'seen-stdin.jsonl'), {
      FAIL_ONCE_PK: 'none',
    });
    await program.parseAsync(['invoke', 'onOrder', '--events', '-', '--config', config], { from: 'user' });
    expect(code).toBe(0);
    expect(out).toContain('2 records: 0 filtered, 2 processed, 0 failed');
  });

  it('exits 2 with the reason for an unknown function, a bad record and a missing events file', async () => {
    const config = writeConfig('errors.config.json', join(directory, 'seen-errors.jsonl'));
    const unknown = await eddy(directory, 'invoke', 'nope', '--events', 'orders.jsonl', '--config', config);
    expect(unknown).toMatchObject({
      code: 2,
      err: ["eddy invoke: no function 'nope' in the config (functions: onOrder, alwaysFails)"],
    });
    const bad = { ...recorded[0]!, dynamodb: { ...recorded[0]!.dynamodb, Keys: { pk: { S: 'a' } } } };
    writeFileSync(join(directory, 'bad.jsonl'), `${JSON.stringify(recorded[1])}\n${JSON.stringify(bad)}\n`);
    const badKeys = await eddy(directory, 'invoke', 'onOrder', '--events', 'bad.jsonl', '--config', config);
    expect(badKeys.code).toBe(2);
    expect(badKeys.err[0]).toMatch(
      /bad\.jsonl \(line 2\): Keys do not match the key schema of Orders \(pk \+ sk\)/,
    );
    const missing = await eddy(
      directory,
      'invoke',
      'onOrder',
      '--events',
      'missing.jsonl',
      '--config',
      config,
    );
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/missing\.jsonl: cannot be read/);
    expect(existsSync(join(directory, 'seen-errors.jsonl'))).toBe(false);
    expect(readFileSync(join(directory, 'orders.jsonl'), 'utf8')).not.toBe('');
  });

  it('says so when the file is not Lambda DynamoDB stream records', async () => {
    const config = writeConfig('not-records.config.json', join(directory, 'seen-not-records.jsonl'));
    const expected =
      'expected Lambda DynamoDB stream records: JSON lines from `eddy record`, a Lambda event {"Records": [...]} (`eddy event dynamodb`) or a JSON array of records';
    const cases: [string, string, string][] = [
      [
        'package.json',
        '{"name":"x","version":"1.0.0"}',
        'not a DynamoDB stream record (an object with name, version)',
      ],
      [
        'sqs.json',
        '{"Records":[{"eventSource":"aws:sqs","body":"hi"}]}',
        '(Records[0]): not a DynamoDB stream record (a record of aws:sqs)',
      ],
      ['notes.txt', 'hello', '(line 1): not JSON (Unexpected token \'h\', "hello" is not valid JSON)'],
      ['numbers.json', '[1, 2]', '([0]): a number is not a stream record'],
    ];
    for (const [name, text, reason] of cases) {
      writeFileSync(join(directory, name), text);
      const run = await eddy(directory, 'invoke', 'onOrder', '--events', name, '--config', config);
      expect(run.code).toBe(2);
      expect(run.err).toEqual([
        `eddy invoke: ${join(directory, name)}${reason.startsWith('(') ? ' ' : ': '}${reason}: ${expected}`,
      ]);
    }
    expect(existsSync(join(directory, 'seen-not-records.jsonl'))).toBe(false);
  });
});
