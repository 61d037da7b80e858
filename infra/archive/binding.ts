import { resolve } from 'node:path';
import {
  ARCHIVER_MAPPING_SETTINGS,
  type ArchiverOptions,
  createHandler,
} from '../../functions/archiver/handler.js';
import type { Sink } from '../../functions/shared/ports.js';
import type { CreateEventSourceMappingInput } from '../../streams/mapping/settings.js';
import type { FunctionDefinition } from '../functions/localFunction.js';
import {
  type ArchiveSink,
  type FileSinkOptions,
  fileSink,
  type S3SinkOptions,
  s3Sink,
} from './archiveSink.js';

/**
 * Wiring for the local stack: a sink from config, and the archiver as a local function plus the
 * event source mapping that binds it to a table's stream with the TTL filter.
 *
 * @example
 * ```ts
 * const { definition, mapping } = archiverBinding({
 *   eventSourceArn: streamArn,
 *   sink: archiveSinkOf({ type: 'files', directory: '.eddy/archive' }),
 *   onFailureDestination: 'arn:aws:sqs:us-east-1:000000000000:archiver-dlq',
 * });
 * functions.define(definition);
 * mappings.create(mapping);
 * ```
 */

/** A sink as a config file names it. */
export type ArchiveSinkConfig =
  | ({ readonly type: 'files' } & FileSinkOptions)
  | ({ readonly type: 's3' } & S3SinkOptions);

/**
 * Environment variables an S3 sink takes its credentials from when the config gives none (the
 * config's `credentials` win). Not `AWS_ACCESS_KEY_ID`: in `eddy serve` that variable holds the
 * placeholder key eddy sets for handlers, which an S3 server refuses.
 */
export const ARCHIVE_CREDENTIALS_ENVIRONMENT = {
  accessKeyId: 'EDDY_ARCHIVE_ACCESS_KEY_ID',
  secretAccessKey: 'EDDY_ARCHIVE_SECRET_ACCESS_KEY',
  sessionToken: 'EDDY_ARCHIVE_SESSION_TOKEN',
} as const;

export interface SinkWiring {
  /** Where a relative directory starts (default: the working directory). */
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Whether `AWS_ACCESS_KEY_ID` now holds the local stack's placeholder key for handlers: an S3
   * sink left to the SDK's credential chain then refuses to sign with it and says what to set.
   */
  readonly placeholderCredentials?: () => boolean;
}

/** The sink a config names; a relative directory starts from `cwd`. */
export function archiveSinkOf(config: ArchiveSinkConfig, wiring: SinkWiring = {}): ArchiveSink {
  const { cwd = process.cwd(), env = process.env, placeholderCredentials } = wiring;
  if (config.type === 'files') {
    const { type: _, ...options } = config;
    return fileSink({ ...options, directory: resolve(cwd, options.directory) });
  }
  if (config.type === 's3') {
    const { type: _, ...options } = config;
    const names = ARCHIVE_CREDENTIALS_ENVIRONMENT;
    const fromEnvironment =
      env[names.accessKeyId] && env[names.secretAccessKey]
        ? {
            accessKeyId: env[names.accessKeyId]!,
            secretAccessKey: env[names.secretAccessKey]!,
            ...(env[names.sessionToken] ? { sessionToken: env[names.sessionToken]! } : {}),
          }
        : undefined;
    const credentials = options.credentials ?? fromEnvironment;
    return s3Sink({
      ...options,
      ...(credentials === undefined ? {} : { credentials }),
      ...(placeholderCredentials === undefined
        ? {}
        : {
            refuseDefaultCredentials: () =>
              placeholderCredentials()
                ? `no credentials for the archive's bucket (eddy's placeholder keys for handlers are not used): set archive.sink.credentials, or ${names.accessKeyId} and ${names.secretAccessKey}`
                : undefined,
          }),
    });
  }
  throw new TypeError(
    `archive sink: type must be "files" or "s3", got ${JSON.stringify((config as { type?: unknown }).type)}`,
  );
}

export interface ArchiverBindingOptions {
  /** The stream to archive from (the table's `LatestStreamArn`; OLD_IMAGE or NEW_AND_OLD_IMAGES). */
  readonly eventSourceArn: string;
  readonly sink: Sink;
  /** Function name (default `archiver`; one per table when several tables are archived). */
  readonly functionName?: string;
  /** Where batches that never succeed are described (SQS, SNS or S3 ARN). */
  readonly onFailureDestination?: string;
  /** Overrides of the recommended mapping settings (`ARCHIVER_MAPPING_SETTINGS`). */
  readonly settings?: Partial<Omit<CreateEventSourceMappingInput, 'FunctionName' | 'EventSourceArn'>>;
  readonly handlerOptions?: ArchiverOptions;
}

/** The archiver function and its mapping, ready for `LocalFunctions.define` and `MappingManager.create`. */
export function archiverBinding(options: ArchiverBindingOptions): {
  definition: FunctionDefinition;
  mapping: CreateEventSourceMappingInput;
} {
  const functionName = options.functionName ?? 'archiver';
  return {
    // 60 s: a batch of 1,000 items is written in milliseconds, a remote bucket may be slow.
    definition: {
      name: functionName,
      handler: createHandler({ sink: options.sink }, options.handlerOptions),
      timeout: 60,
    },
    mapping: {
      FunctionName: functionName,
      EventSourceArn: options.eventSourceArn,
      ...ARCHIVER_MAPPING_SETTINGS,
      ...(options.onFailureDestination
        ? { DestinationConfig: { OnFailure: { Destination: options.onFailureDestination } } }
        : {}),
      ...options.settings,
    },
  };
}
