// A CommonJS script: `node cjs.cjs`. eddy is ES modules; Node 20.19+ loads them with require().
const assert = require('node:assert/strict');
const { PutCommand, GetCommand } = require('@aws-sdk/lib-dynamodb');
const { ConditionalCheckFailedException } = require('@aws-sdk/client-dynamodb');
const { startStack } = require('eddy/testing');
const { defineConfig } = require('eddy/config');

(async () => {
  const { orders } = await import('./config.mjs');
  const stack = await startStack(defineConfig({ tables: [orders] }));
  const put = () =>
    stack.documentClient.send(
      new PutCommand({
        TableName: 'Orders',
        Item: { pk: 'o-1' },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  await put();
  // The error is the SDK's own class, the one this script required.
  await assert.rejects(put(), ConditionalCheckFailedException);
  assert.deepEqual(
    (await stack.documentClient.send(new GetCommand({ TableName: 'Orders', Key: { pk: 'o-1' } }))).Item,
    { pk: 'o-1' },
  );
  await stack.close();
  console.log('cjs: ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
