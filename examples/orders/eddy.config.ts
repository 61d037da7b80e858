import { defineConfig } from 'eddy/config';

/**
 * The smallest eddy project: one table with a stream, one function reading it.
 *
 *   npm start -- --config examples/orders/eddy.config.ts
 */
export default defineConfig({
  tables: [
    {
      TableName: 'Orders',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'orderId', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'orderId', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    },
  ],
  functions: {
    onOrder: {
      handler: './src/onOrder.ts',
      events: [{ stream: { table: 'Orders', StartingPosition: 'LATEST', BatchSize: 10 } }],
    },
  },
});
