import type { Shape } from '../../core/validations/shape.js';
import type { ChangeLog } from '../changeLog.js';
import type { Stream } from '../stream.js';
import type { IteratorCodec } from './shardIterator.js';

/** What a Streams API action sees. */
export interface StreamsContext {
  readonly changeLog: ChangeLog;
  readonly accountId: string;
  readonly region: string;
  /** The engine clock's time when the request started. */
  readonly now: number;
  readonly iterators: IteratorCodec;
  /** The engine's transient status delay (streams are ENABLING/DISABLING meanwhile). */
  readonly transientDelayMs: number;
  /** A retained stream of the caller's account and region, by ARN. */
  findStream(arn: string): Stream | undefined;
}

/**
 * One DynamoDB Streams operation, checked in the service's order as DynamoDB operations are
 * (core/operation.ts): member types → constraint list → `validate` → `execute`.
 */
export interface StreamsOperation<Input = Record<string, unknown>> {
  readonly name: string;
  readonly shape: Record<string, Shape>;
  /** Stateless semantic checks. Throws ValidationException. */
  validate?(input: Input): void;
  /** The action; outputs may hold `StoredItem`s (spliced into the wire body). */
  execute(context: StreamsContext, input: Input): Record<string, unknown>;
}

export function defineStreamsOperation<Input>(definition: StreamsOperation<Input>): StreamsOperation<Input> {
  return definition;
}
