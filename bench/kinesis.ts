/**
 * What a Kinesis streaming destination costs writers (docs/kinesis-destinations.md §5): the CPU
 * time eddy's process spends on PutItems (and on writing their records to Kinesis, until every
 * record is taken) for
 *
 * - a table without a destination, in an engine without Kinesis (the baseline);
 * - the same table while another table has an ACTIVE destination (must be ≈ 1.00×: a table
 *   without a destination pays nothing);
 * - a table with an ACTIVE destination: the records built and sent with PutRecords.
 *
 * CPU time (process.cpuUsage), not wall time: the machine is shared. kinesalite runs in a child
 * process, so its own work is not counted. Each figure is the best of three rounds, interleaved.
 *
 * Run: npm run bench -- kinesis
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SystemClock } from '../core/clock.js';
import { Engine } from '../core/engine.js';
import { attachKinesis, type KinesisDestinations } from '../infra/kinesis/index.js';
import { StreamsService } from '../streams/streamsApi/streamsService.js';
import { PROJECT_ROOT } from './bundle.js';
import { customerItem } from './fixtures.js';
import { printTable, type Row } from './support.js';

const WRITES = 20_000;
const ROUNDS = 3;
const PORT = 45_000 + Math.floor(Math.random() * 5000);
const ENDPOINT = `http://127.0.0.1:${PORT}`;
const CREDENTIALS = { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench' };

const kinesalite = spawn(
  process.execPath,
  [
    join(PROJECT_ROOT, 'node_modules', 'kinesalite', 'cli.js'),
    '--port',
    String(PORT),
    '--createStreamMs',
    '0',
    '--shardLimit',
    '1000',
  ],
  { stdio: 'ignore' },
);

const require = createRequire(import.meta.url);
const sdk = require('@aws-sdk/client-kinesis') as typeof import('@aws-sdk/client-kinesis');
const { NodeHttpHandler } = createRequire(require.resolve('@aws-sdk/client-kinesis'))(
  '@smithy/node-http-handler',
) as { NodeHttpHandler: new () => unknown };
const admin = new sdk.KinesisClient({
  endpoint: ENDPOINT,
  region: 'us-east-1',
  credentials: CREDENTIALS,
  requestHandler: new NodeHttpHandler() as never,
});

async function createStream(name: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.send(new sdk.CreateStreamCommand({ StreamName: name, ShardCount: 2 }));
      break;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return `arn:aws:kinesis:us-east-1:000000000000:stream/${name}`;
}

interface Subject {
  readonly engine: Engine;
  readonly kinesis: KinesisDestinations | undefined;
  readonly table: string;
}

let streams = 0;
async function subject(kind: 'baseline' | 'beside' | 'destination'): Promise<Subject> {
  const engine = new Engine({ clock: new SystemClock() });
  const service = new StreamsService(engine);
  void service;
  const create = (TableName: string) =>
    engine.execute('CreateTable', {
      TableName,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
  create('Plain');
  create('Streamed');
  if (kind === 'baseline') return { engine, kinesis: undefined, table: 'Plain' };
  const kinesis = attachKinesis(engine, service.changeLog, { endpoint: ENDPOINT, credentials: CREDENTIALS });
  engine.execute('EnableKinesisStreamingDestination', {
    TableName: 'Streamed',
    StreamArn: await createStream(`bench-${++streams}`),
  });
  await kinesis.settled();
  const status = engine.execute('DescribeKinesisStreamingDestination', { TableName: 'Streamed' });
  if (
    (status.KinesisDataStreamDestinations as { DestinationStatus: string }[])[0]?.DestinationStatus !==
    'ACTIVE'
  )
    throw new Error(`destination not ACTIVE: ${JSON.stringify(status)}`);
  return { engine, kinesis, table: kind === 'beside' ? 'Plain' : 'Streamed' };
}

const items = Array.from({ length: WRITES }, (_, index) => customerItem(index));

/** CPU seconds for WRITES PutItems and, with a destination, until Kinesis took every record. */
async function cpuSeconds(target: Subject): Promise<number> {
  const start = process.cpuUsage();
  for (const Item of items) target.engine.executeRaw('PutItem', { TableName: target.table, Item });
  await target.kinesis?.settled();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

const best = {
  baseline: Number.POSITIVE_INFINITY,
  beside: Number.POSITIVE_INFINITY,
  destination: Number.POSITIVE_INFINITY,
};
let records = 0;
for (let round = 0; round < ROUNDS; round++)
  for (const kind of ['baseline', 'beside', 'destination'] as const) {
    const target = await subject(kind);
    globalThis.gc?.();
    best[kind] = Math.min(best[kind], await cpuSeconds(target));
    if (kind === 'destination') records = target.kinesis!.counts().records;
    target.kinesis?.close();
  }
kinesalite.kill();
admin.destroy();

const perWrite = (seconds: number) => `${((seconds / WRITES) * 1e6).toFixed(1)} µs CPU/write`;
const rows: Row[] = [
  { name: 'PutItem, no Kinesis at all', value: perWrite(best.baseline) },
  {
    name: 'PutItem to a table without a destination, another table has one',
    value: perWrite(best.beside),
    baseline: perWrite(best.baseline),
    ratio: best.beside / best.baseline,
    target: '≈ 1.00×',
  },
  {
    name: `PutItem to a table with an ACTIVE destination (${records.toLocaleString('en-US')} records written)`,
    value: perWrite(best.destination),
    baseline: perWrite(best.baseline),
    ratio: best.destination / best.baseline,
  },
];
printTable(
  `Kinesis destinations: CPU time of ${WRITES.toLocaleString('en-US')} PutItems, best of ${ROUNDS}`,
  rows,
);
