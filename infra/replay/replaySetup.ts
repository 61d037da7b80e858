import type { StreamViewType } from '../../core/store/table.js';
import { viewIncludes } from '../../streams/streamView.js';
import type { FunctionBinding, StreamBinding } from '../bindings.js';
import type { TableConfig } from '../config.js';
import type { RecordedChange } from './recordedChange.js';
import type { RecordedRecord } from './recordFile.js';

/** A replay the config cannot run: no such function, no stream binding, a handler that fails to load. */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

/**
 * The stream binding to replay through: the one named by `table`, else the function's only one,
 * else the one whose table the records came from (their eventSourceARN names it).
 * @throws ReplayError naming what is missing or ambiguous.
 */
export function chooseBinding(
  bindings: readonly FunctionBinding[],
  functionName: string,
  table: string | undefined,
  records: readonly RecordedRecord[],
): { readonly fn: FunctionBinding; readonly stream: StreamBinding; readonly index: number } {
  const fn = bindings.find((binding) => binding.functionName === functionName);
  if (fn === undefined) {
    const names = bindings.map((binding) => binding.functionName).join(', ');
    throw new ReplayError(`no function '${functionName}' in the config (functions: ${names || 'none'})`);
  }
  const streams = fn.streams;
  const pick = (stream: StreamBinding) => ({ fn, stream, index: streams.indexOf(stream) });
  if (streams.length === 0)
    throw new ReplayError(
      `function '${functionName}' has no stream binding: add events: [{ stream: { table: '<name>', ... } }] to it`,
    );
  if (table !== undefined) {
    const named = streams.find((stream) => stream.table === table);
    if (named === undefined)
      throw new ReplayError(
        `function '${functionName}' is not bound to table '${table}' (bound to: ${streams.map((s) => s.table).join(', ')})`,
      );
    return pick(named);
  }
  if (streams.length === 1) return pick(streams[0]!);
  const recordedTables = new Set(records.map(({ record }) => tableOfStreamArn(record.eventSourceARN)));
  const matching = streams.filter((stream) => recordedTables.has(stream.table));
  if (matching.length === 1) return pick(matching[0]!);
  throw new ReplayError(
    `function '${functionName}' reads ${streams.length} streams (${streams.map((s) => s.table).join(', ')}): choose one with --table`,
  );
}

/** The table name in a stream ARN (`arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>`). */
export function tableOfStreamArn(arn: string | undefined): string | undefined {
  return arn === undefined ? undefined : /:table\/([^/]+)\/stream\//.exec(arn)?.[1];
}

/**
 * The view type of the replay's stream: the table's own (what the deployed function will see)
 * when the records carry every image it shows, else the recorded one, since images that were not
 * recorded cannot be made up (docs/streams-and-lambda.md §1.2.3).
 */
export function replayViewType(
  table: TableConfig,
  changes: readonly RecordedChange[],
): { readonly viewType: StreamViewType; readonly note?: string } {
  const specification = table.StreamSpecification;
  const configured =
    specification?.StreamEnabled === true
      ? (specification.StreamViewType as StreamViewType | undefined)
      : undefined;
  const recorded = changes.find((change) => change.viewType !== undefined)?.viewType;
  if (configured !== undefined && (recorded === undefined || viewIncludes(recorded, configured)))
    return { viewType: configured };
  const viewType = recorded ?? configured ?? 'NEW_AND_OLD_IMAGES';
  if (configured === undefined)
    return {
      viewType,
      note: `table ${table.TableName} has no stream in the config: replaying as a ${viewType} stream`,
    };
  return {
    viewType,
    note: `the records are ${recorded} and table ${table.TableName} streams ${configured}: replaying as ${viewType} (recorded images cannot be made up)`,
  };
}
