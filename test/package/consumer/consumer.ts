// A TypeScript consumer, type-checked (tsc --noEmit) against the published declarations with
// moduleResolution node16 and bundler.
import type { DynamoDBRecord } from 'aws-lambda';
import { type LocalEddy, type RunningServer, startLocal, startServer } from 'eddy';
import { defineConfig, type EddyConfig, type TableConfig } from 'eddy/config';
import { changes$, inserts, unmarshallImages } from 'eddy/streams';
import { startStack, type TestStack } from 'eddy/testing';

const table: TableConfig = {
  TableName: 'Orders',
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
};
const config: EddyConfig = defineConfig({
  tables: [table],
  functions: {
    onOrder: { handler: './src/onOrder.ts', events: [{ stream: { table: 'Orders', BatchSize: 10 } }] },
  },
});

export async function useTestKit(): Promise<number> {
  const stack: TestStack = await startStack(config, { endpoint: true, startAt: new Date('2026-01-01') });
  const keys: string[] = [];
  changes$(stack.stack.changeLog, 'Orders')
    .pipe(inserts(), unmarshallImages<{ pk: string }>())
    .subscribe(({ newImage }) => keys.push(newImage?.pk ?? ''));
  await stack.advance('1m');
  await stack.reset();
  const count: number = stack.invocations('onOrder').length;
  await stack.close();
  return count + keys.length;
}

export async function useServer(): Promise<string> {
  const server: RunningServer = await startServer({ config, port: 0 });
  const local: LocalEddy = await startLocal({ config: './eddy.config.ts' });
  await local.close();
  await server.close();
  return server.url;
}

export const keyOf = (record: DynamoDBRecord): string | undefined => record.dynamodb?.Keys?.pk?.S;
