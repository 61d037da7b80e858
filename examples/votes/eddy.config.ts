import { defineConfig } from 'eddy/config';

/**
 * A voting app, after the "write sharding" building block of the DynamoDB guide: votes go to
 * VOTES#<contestant>#<0..9> shard items (so one hot contestant is spread over ten partitions),
 * and the `tally` function keeps a TOTAL#<contestant> item from the Votes stream. Sessions expire
 * with TTL, and their deletions are archived to gzipped files.
 *
 *   npm start -- --config examples/votes/eddy.config.ts
 */
export default defineConfig({
  tables: [
    {
      TableName: 'Votes',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    },
    {
      TableName: 'Sessions',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'sessionId', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'sessionId', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'OLD_IMAGE' },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    },
  ],
  functions: {
    tally: {
      handler: './src/tally.ts',
      timeout: 10,
      events: [
        {
          stream: {
            table: 'Votes',
            StartingPosition: 'TRIM_HORIZON',
            BatchSize: 100,
            MaximumBatchingWindowInSeconds: 1,
            // Only vote shards: the function's own TOTAL writes must not trigger it again.
            FilterCriteria: {
              Filters: [{ Pattern: '{"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"VOTES#"}]}}}}' }],
            },
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            MaximumRetryAttempts: 2,
            DestinationConfig: {
              OnFailure: { Destination: 'arn:aws:sqs:us-east-1:000000000000:tally-failures' },
            },
          },
        },
      ],
    },
  },
  archive: { tables: ['Sessions'], sink: { type: 'files', directory: '.eddy/archive' } },
});
