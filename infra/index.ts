import { dirname, resolve } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { loadConfig } from './cli/loadConfig.js';
import type { EddyConfig } from './config.js';
import type { ServerOptions } from './host/server.js';
import { LocalStack, type StackOptions } from './stack/localStack.js';

/**
 * The `eddy` package's programmatic API: eddy in your own process, on the system clock. For tests
 * on a virtual clock, `eddy/testing`'s `startStack`; for the config's types, `eddy/config`.
 *
 * @example
 * ```ts
 * import { startServer } from 'eddy';
 * const server = await startServer({ config: './eddy.config.ts', port: 0 });
 * const client = new DynamoDBClient({ endpoint: server.url, region: 'us-east-1',
 *   credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
 * // ... and server.client() answers the same tables in process, with no socket.
 * await server.close();
 * ```
 */
export interface StartOptions extends Omit<StackOptions, 'clock'> {
  /**
   * The project: a config object, or the path of an `eddy.config.*` file (relative paths in it
   * then start from the file's folder). Default: no tables, no functions.
   */
  readonly config?: EddyConfig | string;
}

export interface StartServerOptions
  extends StartOptions,
    Pick<ServerOptions, 'host' | 'accessKeys' | 'maxBodyBytes' | 'logRequests'> {
  /** Port to listen on (default 0: a free one; `url` tells which). */
  readonly port?: number;
}

/** eddy running in this process with no port: a stack and in-process clients. */
export interface LocalEddy {
  readonly stack: LocalStack;
  /** A real `DynamoDBClient` answered in process (no socket); each call makes a new one. */
  client(): DynamoDBClient;
  /** Stops mappings, schedules and functions (and the server, when serving). */
  close(): Promise<void>;
}

/** eddy serving DynamoDB and DynamoDB Streams over HTTP. */
export interface RunningServer extends LocalEddy {
  /** `http://127.0.0.1:<port>`: the SDK's `endpoint`, the CLI's `--endpoint-url`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
}

/** Starts eddy in this process without a port (tables exist and mappings run when it resolves). */
export async function startLocal(options: StartOptions = {}): Promise<LocalEddy> {
  const { config, ...stackOptions } = options;
  let project: EddyConfig = {};
  let baseDirectory = stackOptions.baseDirectory;
  if (typeof config === 'string') {
    const file = resolve(config);
    project = await loadConfig(file);
    baseDirectory ??= dirname(file);
  } else if (config !== undefined) {
    project = config;
  }
  const stack = await LocalStack.start(project, {
    ...stackOptions,
    ...(baseDirectory === undefined ? {} : { baseDirectory }),
  });
  return { stack, client: () => stack.client(), close: () => stack.close() };
}

/**
 * Starts eddy and serves it over HTTP on loopback (DynamoDB and DynamoDB Streams on one port), as
 * `eddy serve` does without its demo table and banner. Handlers that create their own SDK
 * clients reach it (`AWS_ENDPOINT_URL_DYNAMODB` is set, as `eddy serve` sets it).
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { host, port, accessKeys, maxBodyBytes, logRequests, ...startOptions } = options;
  const local = await startLocal(startOptions);
  try {
    const address = await local.stack.listen({
      port: port ?? 0,
      ...(host === undefined ? {} : { host }),
      ...(accessKeys === undefined ? {} : { accessKeys }),
      ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
      ...(logRequests === undefined ? {} : { logRequests }),
    });
    return { ...local, url: address.url, host: address.host, port: address.port };
  } catch (error) {
    await local.close();
    throw error;
  }
}

export { FileStore } from './archive/fileStore.js';
// Reading back what the archiver wrote (what `eddy archive ls/cat` do), e.g. in a test.
export { type ArchiveEntry, type ArchiveListing, listArchive, readArchive } from './archive/reader.js';
export type { EddyConfig } from './config.js';
export { defineConfig } from './config.js';
export { LocalStack, type StackOptions } from './stack/localStack.js';
