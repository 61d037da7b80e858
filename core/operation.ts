import type { Engine } from './engine.js';
import type { Region } from './store/region.js';
import type { Deserialized } from './validations/deserialize.js';
import type { Shape } from './validations/shape.js';

/** Who is calling and where: tables live per account and region. */
export interface RequestContext {
  readonly accountId: string;
  readonly region: string;
  /** The request's `Host` header, for operations that declare `readsHost` (DescribeEndpoints). */
  readonly host?: string;
}

/** What an action sees: the engine, the caller's region, and the request context. */
export interface ActionContext {
  readonly engine: Engine;
  readonly region: Region;
  readonly request: RequestContext;
}

/**
 * One DynamoDB operation: its input shape, its stateless checks, and its action. Checks run in
 * the service's order (docs/dynamodb.md §8.1): types → (control-plane TableName) → constraint list →
 * `validate` → `execute` (table lookup and everything after).
 */
export interface OperationDefinition<Input = Record<string, unknown>, Output = unknown, Prepared = unknown> {
  readonly name: string;
  readonly shape: Record<string, Shape>;
  /**
   * Control-plane table operations check TableName before the constraint list, with their own
   * messages (docs/dynamodb.md §2.5.2); `'presence'`: only whether it is there, its length being a
   * constraint-list entry (CreateTable, 2026).
   */
  readonly controlPlaneTableName?: boolean | 'presence';
  /**
   * PutItem, UpdateItem and DeleteItem prefix their stateless validation messages with
   * `1 validation error detected: ` (docs/dynamodb.md §9.2).
   */
  readonly prefixStatelessErrors?: boolean;
  /** The action reads the request's `Host` (`context.request.host`); others share a cached context. */
  readonly readsHost?: boolean;
  /** Control-plane operations that change a table announce it (`Engine.onTableChange`). */
  readonly changesTables?: boolean;
  /**
   * Stateless semantic checks, in the service's order. Throws ValidationException. What it
   * returns (parsed expressions, plans) is handed to `execute`.
   */
  validate?(input: Input, deserialized: Deserialized, request: RequestContext): Prepared;
  /** The action: table lookup, schema-aware checks, evaluation, commit. */
  execute(context: ActionContext, input: Input, prepared: Prepared): Output;
}

/** Lets operation files declare a definition with typed input, output and prepared plans. */
export function defineOperation<Input, Output, Prepared = unknown>(
  definition: OperationDefinition<Input, Output, Prepared>,
): OperationDefinition<Input, Output, Prepared> {
  return definition;
}
