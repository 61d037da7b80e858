import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine.js';
import { createLocalClient } from '../../infra/host/localClient.js';
import { startServer } from './rawHttp.js';

const TABLE = {
  TableName: 'Shared',
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' as const }],
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' as const }],
  BillingMode: 'PAY_PER_REQUEST' as const,
};

describe('createLocalClient', () => {
  it('returns a real DynamoDBClient that DynamoDBDocumentClient wraps', async () => {
    const client = createLocalClient({ engine: new Engine() });
    expect(client).toBeInstanceOf(DynamoDBClient);
    await client.send(new CreateTableCommand(TABLE));
    const documents = DynamoDBDocumentClient.from(client);
    await documents.send(new PutCommand({ TableName: 'Shared', Item: { id: 'a', n: 1 } }));
    expect((await documents.send(new GetCommand({ TableName: 'Shared', Key: { id: 'a' } }))).Item).toEqual({
      id: 'a',
      n: 1,
    });
  });

  it("shares a server's pipeline: same engine, same registered services", async () => {
    const { server, url } = await startServer();
    try {
      const http = new DynamoDBClient({
        endpoint: url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      });
      await http.send(new CreateTableCommand(TABLE));
      const local = createLocalClient({ pipeline: server.pipeline });
      expect((await local.send(new ListTablesCommand({}))).TableNames).toEqual(['Shared']);
      http.destroy();
    } finally {
      await server.close();
    }
  });

  it('signs for the region it is given; tables live per region', async () => {
    const engine = new Engine();
    await createLocalClient({ engine, region: 'eu-north-1' }).send(new CreateTableCommand(TABLE));
    expect(engine.region('000000000000', 'eu-north-1').tables.has('Shared')).toBe(true);
    expect((await createLocalClient({ engine }).send(new ListTablesCommand({}))).TableNames).toEqual([]);
  });

  it('honours an aborted signal', async () => {
    const client = createLocalClient({ engine: new Engine() });
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.send(new ListTablesCommand({}), { abortSignal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('needs an engine or a pipeline', () => {
    expect(() => createLocalClient({})).toThrow(/needs an engine or a pipeline/);
  });
});
