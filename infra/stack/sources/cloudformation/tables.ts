import type { ReplicaConfig, TableConfig } from '../../../config.js';
import type { TemplateResolver } from './intrinsics.js';
import type { TemplatePath } from './templateFile.js';
import { compact, Values } from './values.js';

/**
 * DynamoDB tables of a template as CreateTable requests (what `tables` of an eddy config holds).
 *
 * `AWS::DynamoDB::Table`: the resource's properties are CreateTable's members with a few spellings
 * changed (the reverse of infra/synth/tables.ts): a StreamSpecification with a view type is an
 * enabled stream, SSESpecification says SSEEnabled, ResourcePolicy holds a PolicyDocument.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html
 *
 * `AWS::DynamoDB::GlobalTable`: the replica in the local region, with the settings the table and
 * that replica give it.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-globaltable.html
 *
 * `AWS::Serverless::SimpleTable`: a one-attribute primary key (default `id`, String), on demand
 * unless it gives ProvisionedThroughput.
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-resource-simpletable.html
 *
 * Properties without a CreateTable member (PointInTimeRecoverySpecification,
 * ContributorInsightsSpecification) change nothing eddy answers and are left out; an import from
 * S3 or a Kinesis stream destination is left out with a notice.
 */
export const TABLE_TYPES = [
  'AWS::DynamoDB::Table',
  'AWS::DynamoDB::GlobalTable',
  'AWS::Serverless::SimpleTable',
] as const;

export interface TableReadResult {
  readonly table: TableConfig;
  readonly notices: readonly string[];
}

export function readTable(resolver: TemplateResolver, logicalId: string): TableReadResult {
  const type = resolver.resource(logicalId)!.Type;
  const reader = new TableReader(resolver, logicalId);
  if (type === 'AWS::Serverless::SimpleTable') return { table: reader.simpleTable(), notices: [] };
  if (type === 'AWS::DynamoDB::GlobalTable') return { table: reader.globalTable(), notices: reader.notices };
  return { table: reader.table(), notices: reader.notices };
}

class TableReader {
  readonly notices: string[] = [];
  private readonly values: Values;

  constructor(
    private readonly resolver: TemplateResolver,
    private readonly logicalId: string,
  ) {
    this.values = new Values(resolver);
  }

  private path(...keys: (string | number)[]): TemplatePath {
    return ['Resources', this.logicalId, 'Properties', ...keys];
  }

  private get(name: string): unknown {
    return this.resolver.property(this.logicalId, name);
  }

  table(): TableConfig {
    const v = this.values;
    const billingMode = v.string(this.get('BillingMode'), this.path('BillingMode'));
    for (const name of ['ImportSourceSpecification', 'KinesisStreamSpecification']) {
      if (this.get(name) !== undefined)
        this.notices.push(
          `table ${this.name()}: ${name} is not emulated (the table starts empty, with no Kinesis copy)`,
        );
    }
    return compact({
      TableName: this.name(),
      AttributeDefinitions: this.get('AttributeDefinitions'),
      KeySchema: this.get('KeySchema'),
      BillingMode: billingMode,
      ProvisionedThroughput: this.throughput(
        this.get('ProvisionedThroughput'),
        this.path('ProvisionedThroughput'),
      ),
      GlobalSecondaryIndexes: this.globalIndexes(
        this.get('GlobalSecondaryIndexes'),
        this.path('GlobalSecondaryIndexes'),
      ),
      LocalSecondaryIndexes: this.localIndexes(
        this.get('LocalSecondaryIndexes'),
        this.path('LocalSecondaryIndexes'),
      ),
      StreamSpecification: this.stream(this.get('StreamSpecification'), this.path('StreamSpecification')),
      SSESpecification: this.sse(this.get('SSESpecification'), this.path('SSESpecification')),
      TimeToLiveSpecification: this.ttl(
        this.get('TimeToLiveSpecification'),
        this.path('TimeToLiveSpecification'),
      ),
      Tags: this.tags(this.get('Tags'), this.path('Tags')),
      DeletionProtectionEnabled: v.boolean(
        this.get('DeletionProtectionEnabled'),
        this.path('DeletionProtectionEnabled'),
      ),
      TableClass: v.string(this.get('TableClass'), this.path('TableClass')),
      OnDemandThroughput: this.numbers(this.get('OnDemandThroughput'), this.path('OnDemandThroughput')),
      WarmThroughput: this.numbers(this.get('WarmThroughput'), this.path('WarmThroughput')),
      ResourcePolicy: this.policy(this.get('ResourcePolicy'), this.path('ResourcePolicy')),
    }) as TableConfig;
  }

  globalTable(): TableConfig {
    const v = this.values;
    const region = this.resolver.pseudo.region;
    const replicas = v.list(this.get('Replicas'), this.path('Replicas')) ?? [];
    const index = replicas.findIndex((replica) => (replica as Record<string, unknown>)?.Region === region);
    if (index < 0) {
      const regions = replicas
        .map((replica) => String((replica as Record<string, unknown>)?.Region))
        .join(', ');
      return v.fail(
        this.path('Replicas'),
        `no replica in ${region}, the local region (replicas: ${regions || 'none'}): add one, or run eddy in one of their regions (--region)`,
      );
    }
    const replicaPath = this.path('Replicas', index);
    const replica = v.object(replicas[index], replicaPath)!;
    const billingMode = v.string(this.get('BillingMode'), this.path('BillingMode')) ?? 'PROVISIONED';
    const provisioned = billingMode === 'PROVISIONED';
    const writeSettings = v.object(
      this.get('WriteProvisionedThroughputSettings'),
      this.path('WriteProvisionedThroughputSettings'),
    );
    const sse = v.object(this.get('SSESpecification'), this.path('SSESpecification'));
    const replicaSse = v.object(replica.SSESpecification, [...replicaPath, 'SSESpecification']);
    const policy = v.object(replica.ResourcePolicy, [...replicaPath, 'ResourcePolicy']);
    const readOnDemand = v.object(replica.ReadOnDemandThroughputSettings, [
      ...replicaPath,
      'ReadOnDemandThroughputSettings',
    ]);
    const writeOnDemand = v.object(
      this.get('WriteOnDemandThroughputSettings'),
      this.path('WriteOnDemandThroughputSettings'),
    );
    const onDemand = compact({
      MaxReadRequestUnits: v.number(readOnDemand?.MaxReadRequestUnits, [
        ...replicaPath,
        'ReadOnDemandThroughputSettings',
      ]),
      MaxWriteRequestUnits: v.number(
        writeOnDemand?.MaxWriteRequestUnits,
        this.path('WriteOnDemandThroughputSettings'),
      ),
    });
    const replicaIndexes = (v.list(replica.GlobalSecondaryIndexes, [
      ...replicaPath,
      'GlobalSecondaryIndexes',
    ]) ?? []) as Record<string, unknown>[];
    const indexes = (
      v.list(this.get('GlobalSecondaryIndexes'), this.path('GlobalSecondaryIndexes')) ?? []
    ).map((item, position) => {
      const path = this.path('GlobalSecondaryIndexes', position);
      const index = v.object(item, path)!;
      const replicaIndex = replicaIndexes.find((candidate) => candidate?.IndexName === index.IndexName);
      return compact({
        IndexName: index.IndexName,
        KeySchema: index.KeySchema,
        Projection: index.Projection,
        ProvisionedThroughput: provisioned
          ? compact({
              ReadCapacityUnits: this.capacity(replicaIndex?.ReadProvisionedThroughputSettings, 'Read', path),
              WriteCapacityUnits: this.capacity(index.WriteProvisionedThroughputSettings, 'Write', path),
            })
          : undefined,
        WarmThroughput: this.numbers(index.WarmThroughput, [...path, 'WarmThroughput']),
      });
    });
    return compact({
      TableName: this.name(),
      AttributeDefinitions: this.get('AttributeDefinitions'),
      KeySchema: this.get('KeySchema'),
      BillingMode: billingMode,
      ProvisionedThroughput: provisioned
        ? {
            ReadCapacityUnits:
              this.capacity(replica.ReadProvisionedThroughputSettings, 'Read', replicaPath) ?? 1,
            WriteCapacityUnits:
              this.capacity(writeSettings, 'Write', this.path('WriteProvisionedThroughputSettings')) ?? 1,
          }
        : undefined,
      GlobalSecondaryIndexes: indexes.length > 0 ? indexes : undefined,
      LocalSecondaryIndexes: this.localIndexes(
        this.get('LocalSecondaryIndexes'),
        this.path('LocalSecondaryIndexes'),
      ),
      StreamSpecification: this.stream(this.get('StreamSpecification'), this.path('StreamSpecification')),
      SSESpecification:
        sse === undefined
          ? undefined
          : compact({
              Enabled: v.boolean(sse.SSEEnabled, this.path('SSESpecification', 'SSEEnabled')),
              SSEType: sse.SSEType,
              KMSMasterKeyId: replicaSse?.KMSMasterKeyId,
            }),
      TimeToLiveSpecification: this.ttl(
        this.get('TimeToLiveSpecification'),
        this.path('TimeToLiveSpecification'),
      ),
      Tags: this.tags(replica.Tags, [...replicaPath, 'Tags']),
      DeletionProtectionEnabled: v.boolean(replica.DeletionProtectionEnabled, [
        ...replicaPath,
        'DeletionProtectionEnabled',
      ]),
      TableClass: v.string(replica.TableClass, [...replicaPath, 'TableClass']),
      OnDemandThroughput: Object.keys(onDemand).length > 0 ? onDemand : undefined,
      WarmThroughput: this.numbers(this.get('WarmThroughput'), this.path('WarmThroughput')),
      ResourcePolicy: this.policy(policy, [...replicaPath, 'ResourcePolicy']),
      Replicas: this.otherReplicas(replicas, index),
    }) as TableConfig;
  }

  /**
   * The GlobalTable's replicas in other regions, made in those regions of this eddy
   * (docs/global-tables.md §1): region, KMS key, table class, read maximum.
   */
  private otherReplicas(replicas: unknown[], local: number): ReplicaConfig[] | undefined {
    const v = this.values;
    const others = replicas.flatMap((item, position) => {
      if (position === local) return [];
      const path = this.path('Replicas', position);
      const replica = v.object(item, path)!;
      const sse = v.object(replica.SSESpecification, [...path, 'SSESpecification']);
      const readOnDemand = v.object(replica.ReadOnDemandThroughputSettings, [
        ...path,
        'ReadOnDemandThroughputSettings',
      ]);
      const maxRead = v.number(readOnDemand?.MaxReadRequestUnits, [
        ...path,
        'ReadOnDemandThroughputSettings',
      ]);
      const read = this.capacity(replica.ReadProvisionedThroughputSettings, 'Read', path);
      return [
        compact({
          RegionName: v.string(replica.Region, [...path, 'Region']),
          KMSMasterKeyId: v.string(sse?.KMSMasterKeyId, [...path, 'SSESpecification', 'KMSMasterKeyId']),
          TableClassOverride: v.string(replica.TableClass, [...path, 'TableClass']),
          ProvisionedThroughputOverride: read === undefined ? undefined : { ReadCapacityUnits: read },
          OnDemandThroughputOverride: maxRead === undefined ? undefined : { MaxReadRequestUnits: maxRead },
        }) as unknown as ReplicaConfig,
      ];
    });
    return others.length > 0 ? others : undefined;
  }

  simpleTable(): TableConfig {
    const v = this.values;
    const key = v.object(this.get('PrimaryKey'), this.path('PrimaryKey')) ?? {};
    const name = v.string(key.Name, this.path('PrimaryKey', 'Name')) ?? 'id';
    const keyType = v.string(key.Type, this.path('PrimaryKey', 'Type')) ?? 'String';
    const attributeType = { String: 'S', Number: 'N', Binary: 'B' }[keyType];
    if (attributeType === undefined)
      return v.fail(this.path('PrimaryKey', 'Type'), `'${keyType}' is not String, Number or Binary`);
    const throughput = this.throughput(this.get('ProvisionedThroughput'), this.path('ProvisionedThroughput'));
    const tags = v.stringMap(this.get('Tags'), this.path('Tags'));
    return compact({
      TableName: this.name(),
      AttributeDefinitions: [{ AttributeName: name, AttributeType: attributeType }],
      KeySchema: [{ AttributeName: name, KeyType: 'HASH' }],
      BillingMode: throughput === undefined ? 'PAY_PER_REQUEST' : 'PROVISIONED',
      ProvisionedThroughput: throughput,
      SSESpecification: this.sse(this.get('SSESpecification'), this.path('SSESpecification')),
      Tags: tags === undefined ? undefined : Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
    }) as TableConfig;
  }

  private name(): string {
    return this.resolver.nameOf(this.logicalId);
  }

  private throughput(value: unknown, path: TemplatePath) {
    const throughput = this.values.object(value, path);
    if (throughput === undefined) return undefined;
    return {
      ReadCapacityUnits: this.values.number(throughput.ReadCapacityUnits, [...path, 'ReadCapacityUnits']),
      WriteCapacityUnits: this.values.number(throughput.WriteCapacityUnits, [...path, 'WriteCapacityUnits']),
    };
  }

  /** `[{ Key, Value }]`, values as text (a tag value from a mapping may be a number). */
  private tags(value: unknown, path: TemplatePath) {
    const list = this.values.list(value, path);
    return list?.map((item, index) => {
      const tag = this.values.object(item, [...path, index])!;
      return {
        Key: this.values.string(tag.Key, [...path, index, 'Key']),
        Value: this.values.string(tag.Value, [...path, index, 'Value']) ?? '',
      };
    });
  }

  /** A map of numbers (OnDemandThroughput, WarmThroughput). */
  private numbers(value: unknown, path: TemplatePath): Record<string, number> | undefined {
    const map = this.values.object(value, path);
    if (map === undefined) return undefined;
    return Object.fromEntries(
      Object.entries(map).map(([key, item]) => [key, this.values.number(item, [...path, key])!]),
    );
  }

  /** A GlobalTable's fixed capacity, or the minimum of its auto scaling. */
  private capacity(settings: unknown, kind: 'Read' | 'Write', path: TemplatePath): number | undefined {
    const map = this.values.object(settings, path);
    if (map === undefined) return undefined;
    const fixed = map[`${kind}CapacityUnits`];
    if (fixed !== undefined) return this.values.number(fixed, path);
    const scaling = this.values.object(map[`${kind}CapacityAutoScalingSettings`], path);
    return this.values.number(scaling?.MinCapacity, path);
  }

  private globalIndexes(value: unknown, path: TemplatePath) {
    const list = this.values.list(value, path);
    if (list === undefined) return undefined;
    return list.map((item, index) => {
      const at = [...path, index];
      const gsi = this.values.object(item, at)!;
      return compact({
        IndexName: gsi.IndexName,
        KeySchema: gsi.KeySchema,
        Projection: gsi.Projection,
        ProvisionedThroughput: this.throughput(gsi.ProvisionedThroughput, [...at, 'ProvisionedThroughput']),
        OnDemandThroughput: this.numbers(gsi.OnDemandThroughput, [...at, 'OnDemandThroughput']),
        WarmThroughput: this.numbers(gsi.WarmThroughput, [...at, 'WarmThroughput']),
      });
    });
  }

  private localIndexes(value: unknown, path: TemplatePath) {
    const list = this.values.list(value, path);
    if (list === undefined) return undefined;
    return list.map((item, index) => {
      const lsi = this.values.object(item, [...path, index])!;
      return compact({ IndexName: lsi.IndexName, KeySchema: lsi.KeySchema, Projection: lsi.Projection });
    });
  }

  /** A stream exists when the specification names a view type. */
  private stream(value: unknown, path: TemplatePath) {
    const specification = this.values.object(value, path);
    const viewType = this.values.string(specification?.StreamViewType, [...path, 'StreamViewType']);
    return viewType === undefined ? undefined : { StreamEnabled: true, StreamViewType: viewType };
  }

  private sse(value: unknown, path: TemplatePath) {
    const sse = this.values.object(value, path);
    if (sse === undefined) return undefined;
    return compact({
      Enabled: this.values.boolean(sse.SSEEnabled, [...path, 'SSEEnabled']),
      SSEType: sse.SSEType,
      KMSMasterKeyId: sse.KMSMasterKeyId,
    });
  }

  private ttl(value: unknown, path: TemplatePath) {
    const ttl = this.values.object(value, path);
    if (ttl === undefined) return undefined;
    return {
      AttributeName: this.values.string(ttl.AttributeName, [...path, 'AttributeName']) ?? '',
      Enabled: this.values.boolean(ttl.Enabled, [...path, 'Enabled']) ?? false,
    };
  }

  /** CreateTable takes the policy as JSON text; the resource holds the document. */
  private policy(value: unknown, path: TemplatePath): string | undefined {
    const policy = this.values.object(value, path);
    return policy?.PolicyDocument === undefined ? undefined : JSON.stringify(policy.PolicyDocument);
  }
}
