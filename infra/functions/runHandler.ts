import type { Context } from 'aws-lambda';

/** A Lambda handler: async, or callback style (docs/streams-and-lambda.md §4.8). */
export type LambdaHandler = (
  event: never,
  context: Context,
  callback: (error?: unknown, result?: unknown) => void,
) => unknown;

/**
 * A function error as Lambda reports it (`errorType` is the error's name; Node.js runtimes add
 * `trace`, the stack line by line: "Node.js Lambda function errors", Lambda developer guide).
 */
export interface FunctionError {
  readonly errorType: string;
  readonly errorMessage: string;
  readonly trace?: readonly string[];
}

export function functionErrorOf(error: unknown): FunctionError {
  if (error instanceof Error) {
    const trace = typeof error.stack === 'string' ? error.stack.split('\n') : undefined;
    return {
      errorType: error.name || 'Error',
      errorMessage: error.message,
      ...(trace === undefined ? {} : { trace }),
    };
  }
  if (typeof error === 'object' && error !== null && 'errorType' in error && 'errorMessage' in error)
    return { errorType: String(error.errorType), errorMessage: String(error.errorMessage) };
  return { errorType: 'Error', errorMessage: String(error) };
}

/**
 * Calls a handler and settles with its result: the promise it returns, the callback it calls, or,
 * for a two-argument handler that returns a plain value, that value.
 */
export function runHandler(handler: LambdaHandler, event: unknown, context: Context): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const callback = (error?: unknown, result?: unknown) => {
      if (settled) return;
      settled = true;
      if (error !== undefined && error !== null) reject(error);
      else resolve(result);
    };
    let returned: unknown;
    try {
      returned = handler(event as never, context, callback);
    } catch (error) {
      callback(error ?? new Error('handler threw'));
      return;
    }
    if (returned !== null && typeof (returned as Promise<unknown>)?.then === 'function') {
      (returned as Promise<unknown>).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error ?? new Error('handler rejected')),
      );
    } else if (handler.length < 3) {
      callback(null, returned);
    }
  });
}
