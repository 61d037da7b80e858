import type { LocalStack } from '../stack/localStack.js';
import type { ConsoleSources } from './sources.js';

/**
 * The console's sources over a running stack; `advance` moves its virtual clock (the test kit).
 * Parts the stack replaces on `reset()` (the gsi-maintainer, the ttl-expirer) are read when used.
 */
export function stackConsoleSources(
  stack: LocalStack,
  advance?: (ms: number) => Promise<void>,
): ConsoleSources {
  return {
    engine: stack.engine,
    changeLog: stack.changeLog,
    mappings: stack.mappings,
    functions: stack.functions,
    destinations: stack.destinations,
    lambdaApi: stack.lambdaApi,
    gsi: () => stack.gsi,
    ttl: () => stack.ttl,
    archive: () => stack.archive,
    clock: stack.engine.clock,
    accountId: stack.engine.defaultAccountId,
    region: stack.engine.defaultRegion,
    ...(advance === undefined ? {} : { advance }),
  };
}
