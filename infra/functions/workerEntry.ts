import { parentPort, workerData } from 'node:worker_threads';
import { inInvocation } from './functionLogs.js';
import { loadHandler } from './handlerModule.js';
import { lambdaContext } from './lambdaContext.js';
import { functionErrorOf, type LambdaHandler, runHandler } from './runHandler.js';
import type { WorkerInit, WorkerInvoke, WorkerReply } from './workerProtocol.js';

/**
 * The worker-thread side of an isolated function (see `workerPool.ts`): loads the handler module
 * once, then runs one invocation at a time. A load failure answers every invocation with it.
 */
const port = parentPort!;
const init = workerData as WorkerInit;
let handler: LambdaHandler | undefined;
let loadError: ReturnType<typeof functionErrorOf> | undefined;
try {
  handler = await loadHandler(init.module, init.exportName, init.cwd);
} catch (error) {
  loadError = functionErrorOf(error);
}

const reply = (message: WorkerReply) => port.postMessage(message);

/** Lambda returns JSON: the result crosses as its JSON value (`undefined` becomes null). */
function jsonValue(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value) ?? 'null');
}

port.on('message', async (message: WorkerInvoke) => {
  const started = performance.now();
  reply({ type: 'started', id: message.id });
  if (handler === undefined) {
    reply({ type: 'result', id: message.id, ok: false, error: loadError! });
    return;
  }
  const context = lambdaContext({
    ...message.context,
    remainingTimeMs: () => message.context.timeoutMs - (performance.now() - started),
  });
  try {
    const result = await inInvocation(
      message.context.requestId,
      (level, text) => reply({ type: 'log', id: message.id, level, message: text }),
      () => runHandler(handler!, message.event, context),
    );
    reply({ type: 'result', id: message.id, ok: true, result: jsonValue(result) });
  } catch (error) {
    reply({ type: 'result', id: message.id, ok: false, error: functionErrorOf(error) });
  }
});
reply(loadError === undefined ? { type: 'ready' } : { type: 'ready', error: loadError });
