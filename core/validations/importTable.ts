import { clientToken, s3Bucket, s3BucketOwner, s3Prefix } from './backupMembers.js';
import { createTableShape } from './createTable.js';
import type { Shape } from './shape.js';

/**
 * ImportTable: the source (bucket, prefix), its format and compression, CSV options, and the
 * new table's parameters (checked by CreateTable's own validation).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ImportTable.html
 */
export interface ImportTableInput {
  ClientToken?: string;
  S3BucketSource: { S3Bucket: string; S3BucketOwner?: string; S3KeyPrefix?: string };
  InputFormat: 'DYNAMODB_JSON' | 'ION' | 'CSV';
  InputFormatOptions?: { Csv?: { Delimiter?: string; HeaderList?: string[] } };
  InputCompressionType?: 'GZIP' | 'ZSTD' | 'NONE';
  TableCreationParameters: Record<string, unknown> & {
    TableName: string;
    AttributeDefinitions: { AttributeName: string; AttributeType: string }[];
    KeySchema: { AttributeName: string; KeyType: string }[];
  };
}

export const importTableShape: Record<string, Shape> = {
  ClientToken: clientToken,
  S3BucketSource: {
    kind: 'structure',
    name: 'S3BucketSource',
    required: true,
    members: { S3BucketOwner: s3BucketOwner, S3Bucket: s3Bucket(true), S3KeyPrefix: s3Prefix },
  },
  InputFormat: { kind: 'string', required: true, enum: ['DYNAMODB_JSON', 'ION', 'CSV'] },
  InputFormatOptions: {
    kind: 'structure',
    name: 'InputFormatOptions',
    members: {
      Csv: {
        kind: 'structure',
        name: 'CsvOptions',
        members: {
          Delimiter: { kind: 'string', minLength: 1, maxLength: 1, pattern: '[,;:|\\t ]' },
          HeaderList: {
            kind: 'list',
            minLength: 1,
            maxLength: 255,
            member: { kind: 'string', minLength: 1, maxLength: 65536 },
          },
        },
      },
    },
  },
  InputCompressionType: { kind: 'string', enum: ['GZIP', 'ZSTD', 'NONE'] },
  TableCreationParameters: {
    kind: 'structure',
    name: 'TableCreationParameters',
    required: true,
    members: {
      TableName: createTableShape.TableName!,
      AttributeDefinitions: createTableShape.AttributeDefinitions!,
      KeySchema: createTableShape.KeySchema!,
      BillingMode: createTableShape.BillingMode!,
      ProvisionedThroughput: createTableShape.ProvisionedThroughput!,
      OnDemandThroughput: createTableShape.OnDemandThroughput!,
      SSESpecification: createTableShape.SSESpecification!,
      GlobalSecondaryIndexes: createTableShape.GlobalSecondaryIndexes!,
    },
  },
};
