import { defineConfig } from 'eddy/config';

/**
 * Orders with a stream, and a function that keeps a per-customer count of orders from it: the
 * jest example (`npm test` here, with `npm run build` done in the repository first).
 */
export default defineConfig({
  tables: [
    {
      TableName: 'Orders',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    },
  ],
  functions: {
    countOrders: {
      handler: './src/countOrders.js',
      events: [
        {
          stream: {
            table: 'Orders',
            StartingPosition: 'TRIM_HORIZON',
            BatchSize: 25,
            FilterCriteria: {
              Filters: [
                {
                  Pattern: '{"eventName":["INSERT"],"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"ORDER#"}]}}}}',
                },
              ],
            },
          },
        },
      ],
    },
  },
});
