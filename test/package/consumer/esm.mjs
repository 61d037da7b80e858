// A plain Node ES module: `node esm.mjs`. The test kit, the streams operators and the server API.
import assert from 'node:assert/strict';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startServer } from 'eddy';
import { defineConfig } from 'eddy/config';
import { changes$, inserts, unmarshallImages } from 'eddy/streams';
import { startStack } from 'eddy/testing';
import { filter, firstValueFrom, from, map, take } from 'rxjs';
import { orders } from './config.mjs';

const seen = [];
const config = defineConfig({
  tables: [orders],
  functions: { onOrder: { handler: './unused.mjs', events: [{ stream: { table: 'Orders' } }] } },
});
const stack = await startStack(config, {
  handlers: { onOrder: async (event) => seen.push(...event.Records.map((r) => r.dynamodb.Keys.pk.S)) },
});
const inserted = [];
changes$(stack.stack.changeLog, 'Orders')
  .pipe(inserts(), unmarshallImages())
  .subscribe(({ newImage }) => inserted.push(newImage.pk));
// The package compiles RxJS in (bin/bundleOptions.mjs): eddy's Observables and operators mix with
// the user's own `rxjs`, both ways, and the user's `from` and `firstValueFrom` take eddy's.
const mixed = firstValueFrom(
  from(changes$(stack.stack.changeLog, 'Orders')).pipe(
    filter(() => true),
    inserts(),
    map((record) => record),
    unmarshallImages(),
    map(({ newImage }) => newImage.pk),
    take(1),
  ),
);
await stack.documentClient.send(
  new PutCommand({ TableName: 'Orders', Item: { pk: 'o-1', status: 'placed' } }),
);
await stack.settled();
assert.deepEqual(seen, ['o-1']);
assert.deepEqual(inserted, ['o-1']);
assert.equal(await mixed, 'o-1');
await stack.reset();
assert.equal(
  (await stack.documentClient.send(new GetCommand({ TableName: 'Orders', Key: { pk: 'o-1' } }))).Item,
  undefined,
);
await stack.close();

const server = await startServer({ config: { tables: [orders] } });
const client = new DynamoDBClient({
  endpoint: server.url,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
assert.deepEqual((await client.send(new ListTablesCommand({}))).TableNames, ['Orders']);
assert.deepEqual((await server.client().send(new ListTablesCommand({}))).TableNames, ['Orders']);
client.destroy();
await server.close();
console.log('esm: ok');
