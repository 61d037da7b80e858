import type { FunctionResolver, MappedFunction } from '../../streams/mapping/invoke.js';

/**
 * Functions that only see durable changes. With a data directory, a write is in the stream as
 * soon as it commits in memory, while its log record reaches the disk at the end of the turn
 * (and, under `always`, after the shared fsync). A mapping that invoked a function in between,
 * and a crash before the log write, would have shown the function a change that never happened
 * after the restart. So each invocation first waits until everything committed so far is as
 * durable as the mode promises (`Persistence.acknowledge`, the same wait answers take): the
 * batch's records were committed before the batch was formed, so they are covered. DynamoDB
 * itself only streams committed writes ("DynamoDB Streams ... captures ... item-level
 * modifications", Developer Guide, Change data capture for DynamoDB Streams).
 */
export function durableFunctions(
  functions: FunctionResolver,
  durable: () => Promise<void> | undefined,
): FunctionResolver {
  return {
    resolve(nameOrArn: string): MappedFunction | undefined {
      const fn = functions.resolve(nameOrArn);
      if (fn === undefined) return undefined;
      return {
        functionName: fn.functionName,
        functionArn: fn.functionArn,
        async invoke(event) {
          await durable();
          return fn.invoke(event);
        },
      };
    },
  };
}
