import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { CapacityOptions } from '../core/throttling/capacityGovernor.js';
import type { FaultKind } from '../core/throttling/faults.js';
import type { KinesisEndpointOptions } from './kinesis/kinesisClient.js';

/**
 * A table eddy creates at start: a CreateTable request (wire shape, as in the AWS docs) plus,
 * optionally, its TTL setting, which DynamoDB sets with a separate UpdateTimeToLive call.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 */
export interface TableConfig extends CreateTableCommandInput {
  readonly TimeToLiveSpecification?: { readonly AttributeName: string; readonly Enabled: boolean };
  /**
   * Replicas in other regions of this eddy (a global table, docs/global-tables.md): each as an
   * UpdateTable `ReplicaUpdates` Create, made when the table is. Templates'
   * `AWS::DynamoDB::GlobalTable` fills this from its `Replicas`.
   */
  readonly Replicas?: readonly ReplicaConfig[];
}

/** One replica of a global table: `CreateReplicationGroupMemberAction`. */
export interface ReplicaConfig {
  readonly RegionName: string;
  readonly KMSMasterKeyId?: string;
  readonly TableClassOverride?: string;
  readonly ProvisionedThroughputOverride?: { readonly ReadCapacityUnits?: number };
  readonly OnDemandThroughputOverride?: { readonly MaxReadRequestUnits?: number };
}

/** A key pair whose SigV4 signatures the server verifies (then other keys are refused). */
export interface AccessKeyConfig {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The account the key belongs to (default: `server.accountId`). */
  readonly accountId?: string;
}

/** Settings of `eddy serve`; command-line flags win over these. */
export interface ServerConfig {
  readonly port?: number;
  readonly host?: string;
  /** Region of the config's tables (default `us-east-1`); each request uses its signature's. */
  readonly region?: string;
  /** Account id in ARNs (default `000000000000`). */
  readonly accountId?: string;
  /** Largest accepted request body in bytes (default 16 MiB, as DynamoDB). */
  readonly maxBodySize?: number;
  /** How long new tables and indexes stay CREATING, in ms or as `'2s'` (default 0). */
  readonly createDelay?: number | string;
  /**
   * How long an event source mapping stays Creating, Enabling, Disabling, Updating or Deleting
   * after a Lambda API call, in ms or as `'1s'` (default 1 s; docs/lambda-api.md §4.7).
   */
  readonly mappingTransition?: number | string;
  /** Verify signatures against these keys; absent: any well-formed credentials are accepted. */
  readonly accessKeys?: readonly AccessKeyConfig[];
  /**
   * Web pages that may call eddy from a browser besides this machine's own
   * (`scheme://host[:port]`, port `*` for any), or `'*'` for every page, as DynamoDB answers.
   */
  readonly cors?: '*' | readonly string[];
  /** Host names served besides this machine's while bound to loopback, or `'*'`. */
  readonly allowedHosts?: '*' | readonly string[];
}

/**
 * A stream binding: the function reads a table's DynamoDB stream through an event source mapping.
 * Settings are CreateEventSourceMapping's members, spelled as AWS spells them (and as SAM's
 * DynamoDB event takes them), so the same config deploys unchanged.
 * https://docs.aws.amazon.com/lambda/latest/api/API_CreateEventSourceMapping.html
 */
export interface StreamBindingConfig {
  /** The table whose stream feeds the function (its StreamSpecification must be enabled). */
  readonly table: string;
  readonly StartingPosition?: 'TRIM_HORIZON' | 'LATEST';
  readonly BatchSize?: number;
  readonly MaximumBatchingWindowInSeconds?: number;
  readonly FilterCriteria?: { readonly Filters: readonly { readonly Pattern: string }[] };
  readonly MaximumRetryAttempts?: number;
  readonly MaximumRecordAgeInSeconds?: number;
  readonly BisectBatchOnFunctionError?: boolean;
  readonly FunctionResponseTypes?: readonly 'ReportBatchItemFailures'[];
  readonly ParallelizationFactor?: number;
  readonly TumblingWindowInSeconds?: number;
  readonly Enabled?: boolean;
  /**
   * Where failed batches go: an SQS queue, SNS topic or S3 bucket ARN (docs/streams-and-lambda.md §2.1.12).
   */
  readonly DestinationConfig?: { readonly OnFailure?: { readonly Destination?: string } };
}

/**
 * A schedule binding: the function runs every `rate`, or when a `cron(...)` or `at(...)`
 * expression says (EventBridge "Scheduled Event"; docs/templates.md §3.6).
 */
export interface ScheduleBindingConfig {
  /**
   * `'5m'`, `'1h'`, milliseconds, EventBridge's `rate(5 minutes)`, or an EventBridge expression
   * `cron(0 10 * * ? *)` / `at(2026-06-01T09:00:00)`, run on the stack's clock.
   */
  readonly rate: string | number;
  /**
   * The time zone `cron(...)` and `at(...)` read in (an IANA name, EventBridge Scheduler's
   * `ScheduleExpressionTimezone`); default UTC.
   */
  readonly Timezone?: string;
  readonly Enabled?: boolean;
  /**
   * The event the function gets instead of the Scheduled Event: JSON text, as an EventBridge
   * target's `Input` (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_Target.html).
   */
  readonly Input?: string;
}

export type BindingConfig =
  | { readonly stream: StreamBindingConfig }
  | { readonly schedule: ScheduleBindingConfig };

/** A Lambda-shaped function of the project, with its bindings. */
export interface FunctionConfig {
  /** The handler module (a `.ts` file or a bundle), relative to the config file. */
  readonly handler: string;
  /** The module's export (default `handler`). */
  readonly exportName?: string;
  /** Seconds (Lambda's default: 3). */
  readonly timeout?: number;
  /** MB, reported to the handler (default 128). */
  readonly memorySize?: number;
  /** Environment variables the handler sees (and the deployment template sets). */
  readonly environment?: Readonly<Record<string, string>>;
  /** `worker` runs the handler in worker threads: a crash or an endless loop fails one invocation. */
  readonly isolation?: 'in-process' | 'worker';
  /** What triggers it: streams and schedules. */
  readonly events?: readonly BindingConfig[];
  /**
   * The Lambda runtime (default a Node.js one). eddy runs Node.js functions only: a function in
   * another runtime (`python3.12`, `java21`, a container image...) is listed at start, its stream
   * bindings are kept disabled and its schedules do not run (docs/templates.md §3.5).
   */
  readonly runtime?: string;
  /**
   * Bundle the handler with esbuild before it runs, with these settings (SAM's
   * `Metadata.BuildProperties` for `BuildMethod: esbuild`); without it the handler module runs as
   * written (tsx for TypeScript).
   */
  readonly build?: FunctionBuildConfig;
}

/**
 * esbuild settings of a function's bundle, as SAM's esbuild build takes them
 * (https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/serverless-sam-cli-using-build-typescript.html).
 */
export interface FunctionBuildConfig {
  /** `esm` or `cjs` (SAM's default: cjs). */
  readonly format?: 'esm' | 'cjs';
  /** esbuild target, e.g. `es2020` or `node20`. */
  readonly target?: string;
  /** Packages left out of the bundle (resolved from node_modules when it runs). */
  readonly external?: readonly string[];
  readonly sourcemap?: boolean;
  readonly minify?: boolean;
  /** esbuild loaders by extension, e.g. `{ '.sql': 'text' }`. */
  readonly loader?: Readonly<Record<string, string>>;
  /** `define` substitutions. */
  readonly define?: Readonly<Record<string, string>>;
  /** Text put at the top of the bundle (`banner.js`). */
  readonly banner?: string;
  /** The main fields esbuild tries in package.json, in order. */
  readonly mainFields?: readonly string[];
}

/**
 * Archival of TTL deletions (the "Time to live for archival" building block,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/data-modeling-blocks.html).
 */
export interface ArchiveConfig {
  /** Tables whose TTL deletions are archived (their streams must carry old images). */
  readonly tables: readonly string[];
  readonly sink:
    | { readonly type: 'files'; readonly directory: string; readonly format?: 'json' | 'parquet' }
    | {
        readonly type: 's3';
        readonly bucket: string;
        /** An S3-compatible server, e.g. s3rver on `http://127.0.0.1:4568` (path-style URLs). */
        readonly endpoint?: string;
        /** Default `AWS_REGION`, else `us-east-1`. */
        readonly region?: string;
        /**
         * Default: `EDDY_ARCHIVE_ACCESS_KEY_ID` / `EDDY_ARCHIVE_SECRET_ACCESS_KEY`, else the AWS
         * SDK's chain (never eddy's placeholder keys for handlers). s3rver takes `S3RVER`/`S3RVER`.
         */
        readonly credentials?: {
          readonly accessKeyId: string;
          readonly secretAccessKey: string;
          readonly sessionToken?: string;
        };
        readonly prefix?: string;
        readonly storageClass?: string;
        readonly format?: 'json' | 'parquet';
      };
  /** On-failure destination ARN for batches that never archive. */
  readonly onFailure?: string;
}

/**
 * The project's `eddy.config.{ts,mjs,json}`: tables, functions with their bindings, and the
 * built-in functions' settings. `eddy serve`, the test kit and `eddy synth` all read it, so the
 * local stack and the deployment template agree by construction.
 */
export interface EddyConfig {
  readonly server?: ServerConfig;
  /** Tables created at start, in order. */
  readonly tables?: readonly TableConfig[];
  /** Lambda-shaped functions by name. */
  readonly functions?: Readonly<Record<string, FunctionConfig>>;
  /** TTL deletion runs (the ttl-expirer). */
  readonly ttl?: {
    readonly rate?: string | number;
    readonly maxDeletionDelay?: string | number;
    readonly batchSize?: number;
  };
  /**
   * Global tables (docs/global-tables.md): how long a write takes to reach the other replicas
   * (`'1s'`, ms). Default: 1 s under `eddy serve`, 0 in the test kit.
   */
  readonly globalTables?: { readonly replicationLag?: string | number };
  /** Global secondary index upkeep (the gsi-maintainer). */
  readonly globalIndexes?: { readonly propagationDelay?: string | number | readonly [number, number] };
  /** DynamoDB Streams settings. */
  readonly streams?: {
    readonly shardCount?: number;
    readonly rolloverPeriod?: string | number;
    readonly retention?: string | number;
  };
  readonly archive?: ArchiveConfig;
  /** Where on-failure destinations keep their records (JSON lines), relative to the config. */
  readonly destinationsDirectory?: string;
  /** Capacity enforcement and injected faults (docs/capacity.md): off by default. */
  readonly capacity?: CapacityConfig;
  /**
   * The Kinesis endpoint tables with a Kinesis streaming destination write to
   * (docs/kinesis-destinations.md §3): `{ endpoint, region?, credentials? }`. Without it, enabling
   * a destination fails with a DestinationStatusDescription saying so.
   */
  readonly kinesis?: KinesisEndpointOptions;
}

/** The config's `capacity` block: how capacity is enforced, and faults injected at start. */
export interface CapacityConfig extends CapacityOptions {
  /** The next `times` requests on `table` are throttled or fail with InternalServerError. */
  readonly faults?: readonly {
    readonly table: string;
    readonly fault: FaultKind;
    readonly times?: number;
  }[];
}

/**
 * Types an eddy configuration (identity at run time).
 *
 * @example
 * ```ts
 * // eddy.config.ts
 * import { defineConfig } from './infra/config.js';
 * export default defineConfig({
 *   server: { port: 8000 },
 *   tables: [{
 *     TableName: 'Orders',
 *     AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
 *     KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
 *     BillingMode: 'PAY_PER_REQUEST',
 *     TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
 *   }],
 * });
 * ```
 */
export function defineConfig(config: EddyConfig): EddyConfig {
  return config;
}
