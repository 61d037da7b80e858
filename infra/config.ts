import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * A table eddy creates at start: a CreateTable request (wire shape, as in the AWS docs) plus,
 * optionally, its TTL setting, which DynamoDB sets with a separate UpdateTimeToLive call.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 */
export interface TableConfig extends CreateTableCommandInput {
  readonly TimeToLiveSpecification?: { readonly AttributeName: string; readonly Enabled: boolean };
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
  /** Region for requests whose signature names none (default `us-east-1`). */
  readonly region?: string;
  /** Account id in ARNs (default `000000000000`). */
  readonly accountId?: string;
  /** Largest accepted request body in bytes (default 16 MiB, as DynamoDB). */
  readonly maxBodySize?: number;
  /** How long new tables and indexes stay CREATING, in ms or as `'2s'` (default 0). */
  readonly createDelay?: number | string;
  /** Verify signatures against these keys; absent: any well-formed credentials are accepted. */
  readonly accessKeys?: readonly AccessKeyConfig[];
}

/**
 * The project's `eddy.config.{ts,mjs,json}`. Open on purpose: functions and their bindings to
 * streams and schedules join here as they land (add the key to `CONFIG_KEYS` in
 * `infra/cli/loadConfig.ts` with its checks).
 */
export interface EddyConfig {
  readonly server?: ServerConfig;
  /** Tables created at start, in order. */
  readonly tables?: readonly TableConfig[];
  /** Lambda-shaped functions (arrives with the functions issue). */
  readonly functions?: unknown;
  /** Which function listens to which stream or schedule (arrives with the bindings issue). */
  readonly bindings?: unknown;
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
