import {
  DynamoDbError,
  InternalServerError,
  SerializationException,
  UnknownOperationException,
} from '../../core/errors/index.js';
import type { RequestContext } from '../../core/operation.js';
import { deserialize } from '../../core/validations/deserialize.js';
import { collectConstraintErrors, throwConstraintErrors } from '../../core/validations/shape.js';
import { materialize, toWireJson } from '../../core/wire.js';
import { ChangeLog, type ChangeLogOptions } from '../changeLog.js';
import type { ChangeSource } from '../changeSource.js';
import { describeStream } from './describeStream.js';
import { getRecords } from './getRecords.js';
import { getShardIterator } from './getShardIterator.js';
import { listStreams } from './listStreams.js';
import type { StreamsContext, StreamsOperation } from './operation.js';
import { iteratorCodecOf } from './shardIterator.js';

/** The `X-Amz-Target` prefix of the DynamoDB Streams API. */
export const STREAMS_TARGET_PREFIX = 'DynamoDBStreams_20120810';

// biome-ignore lint/suspicious/noExplicitAny: each definition carries its own input type.
const operations: Record<string, StreamsOperation<any>> = Object.create(null);
for (const operation of [listStreams, describeStream, getShardIterator, getRecords])
  operations[operation.name] = operation;

export interface StreamsServiceOptions {
  /** Called with errors that are eddy's bugs (answered as InternalServerError). */
  onInternalError?: (error: unknown, operation: string) => void;
}

/**
 * The DynamoDB Streams API over a change log: `execute(operation, input, context)` mirrors
 * `Engine.execute` (wire JSON in and out, `DynamoDbError`s thrown with the service's names and
 * messages). `protocol` is the shape the HTTP host registers under
 * `X-Amz-Target: DynamoDBStreams_20120810.<Operation>`.
 *
 * @example
 * ```ts
 * const engine = new Engine();
 * const streams = new StreamsService(engine);
 * server.registerService(streams.protocol);
 * const { Streams } = streams.execute('ListStreams', { TableName: 'Orders' });
 * ```
 */
export class StreamsService {
  readonly changeLog: ChangeLog;
  private readonly onInternalError: (error: unknown, operation: string) => void;

  constructor(source: ChangeLog | ChangeSource, options: StreamsServiceOptions & ChangeLogOptions = {}) {
    this.changeLog = source instanceof ChangeLog ? source : ChangeLog.attach(source, options);
    this.onInternalError = options.onInternalError ?? (() => {});
  }

  supports(operation: string): boolean {
    return Object.hasOwn(operations, operation);
  }

  /**
   * Runs one operation; input and output are the wire JSON as parsed objects.
   * @throws DynamoDbError with the service's name, `__type` and message.
   */
  execute(operation: string, input: unknown, context: Partial<RequestContext> = {}): Record<string, unknown> {
    return materialize(this.executeRaw(operation, input, context));
  }

  /** Like `execute`, but images stay `StoredItem`s, for `toWireJson` to splice their text. */
  executeRaw(
    operation: string,
    input: unknown,
    context: Partial<RequestContext> = {},
  ): Record<string, unknown> {
    const definition = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
    if (definition === undefined) throw new UnknownOperationException();
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new SerializationException();
    try {
      const typed = deserialize(input as Record<string, unknown>, definition.shape).input;
      throwConstraintErrors(collectConstraintErrors(typed, definition.shape));
      definition.validate?.(typed);
      return definition.execute(this.context(context), typed);
    } catch (error) {
      if (error instanceof DynamoDbError) throw error;
      this.onInternalError(error, operation);
      throw new InternalServerError('Internal server error');
    }
  }

  /** The API as the host's `ProtocolService` (`server.registerService(streams.protocol)`). */
  get protocol() {
    return {
      targetPrefix: STREAMS_TARGET_PREFIX,
      supports: (operation: string) => this.supports(operation),
      execute: (operation: string, input: Record<string, unknown>, context: RequestContext) =>
        this.executeRaw(operation, input, context),
      serialize: (output: Record<string, unknown>) => toWireJson(output),
    };
  }

  private context(request: Partial<RequestContext>): StreamsContext {
    const changeLog = this.changeLog;
    const source = changeLog.source;
    const accountId = request.accountId ?? source.defaultAccountId ?? '000000000000';
    const region = request.region ?? source.defaultRegion ?? 'us-east-1';
    return {
      changeLog,
      accountId,
      region,
      now: changeLog.now(),
      iterators: iteratorCodecOf(changeLog),
      transientDelayMs: source.transientStatusDelayMs ?? 0,
      // Each operation reaches the change log once through `stream` or `listStreams`, which
      // reconcile it with the tables and the clock first.
      findStream(arn) {
        const stream = changeLog.stream(arn);
        return stream !== undefined && stream.accountId === accountId && stream.region === region
          ? stream
          : undefined;
      },
    };
  }
}
