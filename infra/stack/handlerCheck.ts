import { existsSync } from 'node:fs';
import { BindingError, type FunctionBinding } from '../bindings.js';
import { HandlerLoadError } from '../functions/handlerModule.js';
import type { LocalFunction } from '../functions/localFunction.js';

/**
 * A function whose handler cannot run: its file is missing, it has no such export, or it fails to
 * load. Found when the stack starts (or a rebuilt handler is swapped in), not by every record
 * failing with Runtime.ImportModuleError and being retried for ever, blocking its shard.
 */
export class HandlerMissingError extends BindingError {
  constructor(
    readonly functionName: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`functions.${functionName}.handler`, reason);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * Loads a function's handler (in its worker thread under worker isolation) and says what stops
 * it, naming the function, the file and the export; `undefined` when it loads.
 *
 * @param file the module loaded (default: the config's handler path; under `--watch`, a bundle
 *   built from it, whose errors still name the config's file).
 */
export async function handlerProblem(
  binding: FunctionBinding,
  fn: LocalFunction,
  file = binding.handlerPath,
): Promise<HandlerMissingError | undefined> {
  const { functionName, handlerPath, exportName } = binding;
  const what = `function ${functionName}: handler ${handlerPath} (export '${exportName}')`;
  if (!existsSync(file)) return new HandlerMissingError(functionName, `${what}: no such file`);
  try {
    await fn.load();
    return undefined;
  } catch (error) {
    if (error instanceof HandlerLoadError && error.name === 'Runtime.HandlerNotFound')
      return new HandlerMissingError(
        functionName,
        `${what}: the module has no export '${exportName}' that is a function`,
        { cause: error },
      );
    const message = error instanceof Error ? error.message.replace(/^Error: /, '') : String(error);
    return new HandlerMissingError(functionName, `${what}: it does not load: ${message}`, {
      cause: error,
    });
  }
}
