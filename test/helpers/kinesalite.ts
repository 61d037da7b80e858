import { createRequire } from 'node:module';
import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';
import {
  CreateStreamCommand,
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  KinesisClient,
} from '@aws-sdk/client-kinesis';

const require = createRequire(import.meta.url);
// kinesalite: an in-memory Kinesis server (npm), the real thing eddy's destinations write to.
const kinesalite = require('kinesalite') as (options: Record<string, number>) => {
  listen(port: number, host: string, callback: () => void): void;
  close(callback: () => void): void;
  address(): AddressInfo;
};
const { NodeHttpHandler } = createRequire(require.resolve('@aws-sdk/client-kinesis'))(
  '@smithy/node-http-handler',
) as { NodeHttpHandler: new () => unknown };

export const KINESIS_CREDENTIALS = { accessKeyId: 'AKIDKINESIS', secretAccessKey: 'kinesis-secret' };

export interface Kinesalite {
  /** Where eddy reaches it (through a relay that `pause` and `resume` stop and start). */
  readonly endpoint: string;
  readonly client: KinesisClient;
  /** Creates a stream (ACTIVE at once) and answers its ARN. */
  createStream(name: string, shards?: number): Promise<string>;
  /** Every record of every shard, oldest first per shard, data parsed as JSON. */
  readAll(name: string): Promise<{ shardId: string; partitionKey: string; data: Record<string, unknown> }[]>;
  /** Stops answering (connections refused) until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of kinesalite, so a test can make Kinesis unreachable and reachable again
 * (kinesalite itself forgets its streams when closed).
 */
function relay(target: number) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const upstream = createConnection(target, '127.0.0.1');
    for (const end of [socket, upstream]) {
      sockets.add(end);
      end.on('close', () => sockets.delete(end));
      end.on('error', () => {});
    }
    socket.pipe(upstream).pipe(socket);
  });
  let port = 0;
  return {
    get port() {
      return port;
    },
    listen: () =>
      new Promise<void>((resolve) =>
        server.listen(port, '127.0.0.1', () => {
          port = (server.address() as AddressInfo).port;
          resolve();
        }),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

export async function startKinesalite(): Promise<Kinesalite> {
  const server = kinesalite({ createStreamMs: 0, deleteStreamMs: 0, updateStreamMs: 0, shardLimit: 50 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const front = relay(port);
  await front.listen();
  const endpoint = `http://127.0.0.1:${front.port}`;
  const client = new KinesisClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: KINESIS_CREDENTIALS,
    requestHandler: new NodeHttpHandler() as never,
  });
  return {
    endpoint,
    client,
    async createStream(name, shards = 1) {
      await client.send(new CreateStreamCommand({ StreamName: name, ShardCount: shards }));
      const described = await client.send(new DescribeStreamCommand({ StreamName: name }));
      return described.StreamDescription!.StreamARN!;
    },
    async readAll(name) {
      const described = await client.send(new DescribeStreamCommand({ StreamName: name }));
      const records: { shardId: string; partitionKey: string; data: Record<string, unknown> }[] = [];
      for (const shard of described.StreamDescription!.Shards ?? []) {
        let iterator = (
          await client.send(
            new GetShardIteratorCommand({
              StreamName: name,
              ShardId: shard.ShardId!,
              ShardIteratorType: 'TRIM_HORIZON',
            }),
          )
        ).ShardIterator;
        while (iterator !== undefined) {
          const page = await client.send(new GetRecordsCommand({ ShardIterator: iterator }));
          for (const record of page.Records ?? [])
            records.push({
              shardId: shard.ShardId!,
              partitionKey: record.PartitionKey!,
              data: JSON.parse(Buffer.from(record.Data!).toString('utf8')),
            });
          if ((page.Records ?? []).length === 0) break;
          iterator = page.NextShardIterator;
        }
      }
      return records;
    },
    pause: () => front.close(),
    resume: () => front.listen(),
    async close() {
      client.destroy();
      await front.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
