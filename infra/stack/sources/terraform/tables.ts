import type { TableConfig } from '../../../config.js';
import { isObject } from '../cloudformation/shapes.js';
import { compact } from '../cloudformation/values.js';
import type { Block, TerraformModule } from './module.js';

/** An `aws_dynamodb_table` as a CreateTable request (billing_mode defaults to PROVISIONED, as the provider's). */
export function readTable(module: TerraformModule, block: Block): TableConfig {
  const get = (...path: (string | number)[]) => module.evaluateAt(block, path);
  const name = get('name');
  if (typeof name !== 'string' || name === '') return module.fail(block, ['name'], 'name is required');
  const key = (hash: unknown, range: unknown) => [
    { AttributeName: String(hash), KeyType: 'HASH' as const },
    ...(range === undefined || range === null
      ? []
      : [{ AttributeName: String(range), KeyType: 'RANGE' as const }]),
  ];
  const blocks = (argument: string) => {
    const value = get(argument);
    return Array.isArray(value) ? value.filter(isObject) : [];
  };
  const projection = (index: Record<string, unknown>) =>
    compact({
      ProjectionType: String(index.projection_type ?? 'ALL') as 'ALL',
      NonKeyAttributes: Array.isArray(index.non_key_attributes)
        ? index.non_key_attributes.map(String)
        : undefined,
    });
  const billing = String(get('billing_mode') ?? 'PROVISIONED');
  const throughput = (source: Record<string, unknown>) =>
    billing === 'PROVISIONED'
      ? {
          ProvisionedThroughput: {
            ReadCapacityUnits: Number(source.read_capacity),
            WriteCapacityUnits: Number(source.write_capacity),
          },
        }
      : {};
  if (get('hash_key') === undefined) return module.fail(block, ['hash_key'], 'hash_key is required');
  const gsis = blocks('global_secondary_index').map((index) =>
    compact({
      IndexName: String(index.name),
      KeySchema: key(index.hash_key, index.range_key),
      Projection: projection(index),
      ...throughput(index),
    }),
  );
  const lsis = blocks('local_secondary_index').map((index) => ({
    IndexName: String(index.name),
    KeySchema: key(get('hash_key'), index.range_key),
    Projection: projection(index),
  }));
  const ttl = blocks('ttl')[0];
  const sse = blocks('server_side_encryption')[0];
  const onDemand = blocks('on_demand_throughput')[0];
  const tags = get('tags');
  const streamEnabled = get('stream_enabled') === true;
  return compact({
    TableName: name,
    AttributeDefinitions: blocks('attribute').map((attribute) => ({
      AttributeName: String(attribute.name),
      AttributeType: String(attribute.type) as 'S',
    })),
    KeySchema: key(get('hash_key'), get('range_key')),
    BillingMode: billing as 'PROVISIONED',
    ...(billing === 'PROVISIONED'
      ? {
          ProvisionedThroughput: {
            ReadCapacityUnits: Number(get('read_capacity')),
            WriteCapacityUnits: Number(get('write_capacity')),
          },
        }
      : {}),
    GlobalSecondaryIndexes: gsis.length > 0 ? gsis : undefined,
    LocalSecondaryIndexes: lsis.length > 0 ? lsis : undefined,
    StreamSpecification: streamEnabled
      ? {
          StreamEnabled: true,
          StreamViewType: String(get('stream_view_type') ?? 'NEW_AND_OLD_IMAGES') as 'NEW_IMAGE',
        }
      : undefined,
    TimeToLiveSpecification:
      ttl !== undefined && typeof ttl.attribute_name === 'string' && ttl.attribute_name !== ''
        ? { AttributeName: ttl.attribute_name, Enabled: ttl.enabled !== false }
        : undefined,
    SSESpecification:
      sse !== undefined
        ? compact({
            Enabled: sse.enabled === true,
            ...(sse.enabled === true ? { SSEType: 'KMS' as const } : {}),
            KMSMasterKeyId: typeof sse.kms_key_arn === 'string' ? sse.kms_key_arn : undefined,
          })
        : undefined,
    DeletionProtectionEnabled:
      typeof get('deletion_protection_enabled') === 'boolean'
        ? (get('deletion_protection_enabled') as boolean)
        : undefined,
    TableClass:
      typeof get('table_class') === 'string' && get('table_class') !== ''
        ? (get('table_class') as 'STANDARD')
        : undefined,
    OnDemandThroughput:
      onDemand !== undefined
        ? compact({
            MaxReadRequestUnits:
              onDemand.max_read_request_units === undefined
                ? undefined
                : Number(onDemand.max_read_request_units),
            MaxWriteRequestUnits:
              onDemand.max_write_request_units === undefined
                ? undefined
                : Number(onDemand.max_write_request_units),
          })
        : undefined,
    Tags:
      isObject(tags) && Object.keys(tags).length > 0
        ? Object.entries(tags).map(([Key, Value]) => ({ Key, Value: String(Value) }))
        : undefined,
  }) as TableConfig;
}
