import type { Engine } from '../../core/engine.js';
import type { RequestContext } from '../../core/operation.js';
import { toWireJson } from '../../core/wire.js';

/** The `X-Amz-Target` prefix of the DynamoDB API (docs/dynamodb.md §1.1.1). */
export const DYNAMODB_TARGET_PREFIX = 'DynamoDB_20120810';
/** The `X-Amz-Target` prefix of the DynamoDB Streams API, served on the same port. */
export const STREAMS_TARGET_PREFIX = 'DynamoDBStreams_20120810';

/**
 * One JSON 1.0 API the host answers, chosen by the part of `X-Amz-Target` before the dot. The
 * DynamoDB API is the engine; the streams module registers `DynamoDBStreams_20120810` the same
 * way (`server.registerService(...)` or `pipeline.registerService(...)`).
 *
 * `execute` returns the wire output object (or a promise of it) and throws a `DynamoDbError`
 * for the service's errors; anything else it throws is answered as InternalServerError and
 * logged with its stack.
 *
 * @example
 * ```ts
 * const streamsService: ProtocolService = {
 *   targetPrefix: STREAMS_TARGET_PREFIX,
 *   supports: (operation) => operation === 'ListStreams',
 *   execute: () => ({ Streams: [] }),
 * };
 * ```
 */
export interface ProtocolService {
  readonly targetPrefix: string;
  /**
   * Whether the operation exists; unknown ones answer UnknownOperationException (docs/dynamodb.md §1.2.5).
   */
  supports(operation: string): boolean;
  execute(
    operation: string,
    input: Record<string, unknown>,
    context: RequestContext,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Turns an output into its JSON text (default `JSON.stringify`). */
  serialize?(output: Record<string, unknown>): string;
}

/**
 * The DynamoDB API, answered by the engine. Outputs stay raw (stored items as stored) and
 * `toWireJson` splices each item's stored JSON text into the body, so an item read is never
 * decoded and re-encoded on its way out.
 */
export function dynamoDbService(engine: Engine): ProtocolService {
  return {
    targetPrefix: DYNAMODB_TARGET_PREFIX,
    supports: (operation) => engine.supports(operation),
    execute: (operation, input, context) => engine.executeRaw(operation, input, context),
    serialize: toWireJson,
  };
}
