/**
 * The function port of event source mappings (docs/architecture.md §4). A mapping
 * knows a function by its name and ARN and calls `invoke` with the event; what runs behind it
 * (an in-process handler, a handler module, a worker thread) is the runtime's business
 * (`infra/functions/`). The Lambda `Context`, the timeout and the invocation log live there too.
 *
 * Lambda invokes stream functions synchronously (docs/streams-and-lambda.md §2.2.1): the outcome is the
 * handler's response, or a function error when it threw, timed out or its runtime crashed. Either way the
 * invoke API answered 200 (docs/streams-and-lambda.md §2.5.2), so a function error is an outcome, not a
 * rejection: `invoke` rejects only when the function could not be invoked at all
 * (docs/streams-and-lambda.md §2.3.4).
 */
export interface InvocationResult {
  /** The invocation's `awsRequestId`. */
  readonly requestId: string;
  /** `ok`: the handler returned `payload`. `error`: it threw, timed out or crashed. */
  readonly status: 'ok' | 'error';
  /** The handler's response (`undefined` when it returned nothing). */
  readonly payload?: unknown;
  /** The function error (`errorType` as Lambda names it: `Error`, `Sandbox.Timedout`...). */
  readonly error?: {
    readonly errorType: string;
    readonly errorMessage: string;
    /** The stack, line by line, as Node.js runtimes report it. */
    readonly trace?: readonly string[];
  };
  /** The invocation's log lines (START, the handler's lines, END, REPORT), when the runtime keeps them. */
  readonly logs?: readonly string[];
}

/**
 * Whether `invoke` rejected because the function was throttled (its reserved concurrency in use):
 * the rejection carries `throttled: true`. Lambda retries such a batch until its records expire,
 * without counting an attempt (docs/streams-and-lambda.md §2.3.4).
 */
export function isThrottle(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { throttled?: unknown }).throttled === true;
}

/** A function a mapping can invoke. */
export interface MappedFunction {
  readonly functionName: string;
  /** `arn:aws:lambda:<region>:<account>:function:<name>` (the unqualified ARN). */
  readonly functionArn: string;
  invoke(event: unknown): Promise<InvocationResult>;
}

/** Finds functions by name or ARN (CreateEventSourceMapping's `FunctionName` takes either). */
export interface FunctionResolver {
  resolve(nameOrArn: string): MappedFunction | undefined;
}

/** The unqualified function name of a name or ARN (`…:function:<name>[:<qualifier>]`). */
export function functionNameOf(nameOrArn: string): string {
  const match = /^arn:aws[a-z-]*:lambda:[^:]+:[^:]+:function:([^:]+)/.exec(nameOrArn);
  return match ? match[1]! : nameOrArn;
}
