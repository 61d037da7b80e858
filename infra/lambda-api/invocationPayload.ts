import type { InvocationResult } from '../../streams/mapping/invoke.js';

/**
 * What Invoke answers for one invocation: the handler's result as JSON, or Lambda's error object,
 * and the log tail. Limits: https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
 */

/** The response payload limit of a synchronous invocation (6 MB). */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;
/** `X-Amz-Log-Result`: the last 4 KB of the log ("The last 4 KB of the execution log", Invoke). */
export const LOG_TAIL_BYTES = 4096;

/** Lambda's error object for a function error (Node.js: errorType, errorMessage, trace). */
export function functionErrorPayload(result: InvocationResult): Record<string, unknown> {
  const error = result.error ?? { errorType: 'Error', errorMessage: 'Unknown error' };
  return {
    errorType: error.errorType,
    errorMessage: error.errorMessage,
    trace: [...(error.trace ?? [])],
  };
}

/** The answer's body and whether it is a function error. */
export function responseBody(result: InvocationResult): { body: Buffer; functionError: boolean } {
  if (result.status === 'error')
    return { body: Buffer.from(JSON.stringify(functionErrorPayload(result))), functionError: true };
  let text: string | undefined;
  try {
    // A handler that returns nothing answers `null`, as Lambda's runtime serialises undefined.
    text = JSON.stringify(result.payload === undefined ? null : result.payload);
  } catch (error) {
    // A result JSON cannot hold (a BigInt, a cycle) fails the invocation in the runtime too.
    return {
      body: Buffer.from(
        JSON.stringify({
          errorType: (error as Error).name || 'Error',
          errorMessage: (error as Error).message,
          trace: [],
        }),
      ),
      functionError: true,
    };
  }
  const body = Buffer.from(text ?? 'null');
  if (body.length > MAX_RESPONSE_BYTES)
    // Lambda's message for an oversized response (the figure as the service prints it).
    return {
      body: Buffer.from(
        JSON.stringify({
          errorMessage: `Response payload size exceeded maximum allowed payload size (6291556 bytes).`,
          errorType: 'Function.ResponseSizeTooLarge',
        }),
      ),
      functionError: true,
    };
  return { body, functionError: false };
}

/** The last 4 KB of the invocation's log, base64 (whole UTF-8 characters only). */
export function logTail(lines: readonly string[] | undefined): string {
  const text = Buffer.from(lines === undefined || lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  let start = Math.max(0, text.length - LOG_TAIL_BYTES);
  // Never start inside a multi-byte character (continuation bytes are 10xxxxxx).
  while (start < text.length && (text[start]! & 0xc0) === 0x80) start++;
  return text.subarray(start).toString('base64');
}
