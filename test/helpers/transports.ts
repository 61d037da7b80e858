import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Engine, type EngineOptions } from '../../core/engine.js';
import { createLocalClient } from '../../infra/host/localClient.js';
import type { RequestPipeline } from '../../infra/host/pipeline.js';
import { EddyServer } from '../../infra/host/server.js';

/**
 * One suite, two transports: the same SDK calls over real HTTP on loopback and through the
 * in-process client must behave alike (same outputs, same error classes, names, messages and
 * status codes).
 *
 * @example
 * ```ts
 * describe.each(transports)('ListTables over $name', (transport) => {
 *   let eddy: TransportHandle;
 *   beforeEach(async () => { eddy = await transport.start(); });
 *   afterEach(() => eddy.close());
 *   it('lists no tables at first', async () => {
 *     expect(await eddy.client.send(new ListTablesCommand({}))).toMatchObject({ TableNames: [] });
 *   });
 * });
 * ```
 */
export interface Transport {
  readonly name: 'http' | 'in-process';
  /** A fresh engine behind this transport. */
  start(options?: TransportOptions): Promise<TransportHandle>;
}

export interface TransportOptions {
  /** Engine settings (clock, account, region, transient delay). */
  readonly engine?: EngineOptions;
  /** Region the client signs for (default us-east-1). */
  readonly region?: string;
  /** SDK attempts per call (default 1: a failure shows at once, no retry delays). */
  readonly maxAttempts?: number;
}

export interface TransportHandle {
  readonly engine: Engine;
  readonly pipeline: RequestPipeline;
  readonly client: DynamoDBClient;
  readonly documents: DynamoDBDocumentClient;
  /** The HTTP endpoint (http transport only). */
  readonly endpoint: string | undefined;
  close(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'AKIDEDDYTEST', secretAccessKey: 'eddy-test-secret' };

export const httpTransport: Transport = {
  name: 'http',
  async start(options = {}) {
    const engine = new Engine(options.engine);
    const server = new EddyServer({ engine, port: 0 });
    const { url } = await server.listen();
    const client = new DynamoDBClient({
      endpoint: url,
      region: options.region ?? 'us-east-1',
      credentials: CREDENTIALS,
      maxAttempts: options.maxAttempts ?? 1,
    });
    return {
      engine,
      pipeline: server.pipeline,
      client,
      documents: DynamoDBDocumentClient.from(client),
      endpoint: url,
      async close() {
        client.destroy();
        await server.close();
      },
    };
  },
};

export const localTransport: Transport = {
  name: 'in-process',
  async start(options = {}) {
    const engine = new Engine(options.engine);
    const client = createLocalClient({
      engine,
      region: options.region ?? 'us-east-1',
      credentials: CREDENTIALS,
      client: { maxAttempts: options.maxAttempts ?? 1 },
    });
    const handler = client.config.requestHandler as unknown as { pipeline: RequestPipeline };
    return {
      engine,
      pipeline: handler.pipeline,
      client,
      documents: DynamoDBDocumentClient.from(client),
      endpoint: undefined,
      async close() {
        client.destroy();
      },
    };
  },
};

/** Both transports, for `describe.each(transports)`. */
export const transports: readonly Transport[] = [httpTransport, localTransport];
