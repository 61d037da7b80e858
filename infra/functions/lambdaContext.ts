import type { Context } from 'aws-lambda';
import { pooledRandomBytes } from '../../core/random/pooledRandomBytes.js';

/**
 * The Lambda `Context` of one invocation (docs/streams-and-lambda.md §4.8: `Handler = (event, context,
 * callback)`): function name and version, the invoked ARN, memory, request id, log group and stream, and the
 * time left before the timeout.
 * https://docs.aws.amazon.com/lambda/latest/dg/nodejs-context.html
 */
export interface ContextInit {
  readonly functionName: string;
  readonly requestId: string;
  readonly accountId: string;
  readonly region: string;
  readonly memoryLimitInMB: number;
  /** Milliseconds left before the invocation times out. */
  readonly remainingTimeMs: () => number;
  /** The log stream (default: a new `YYYY/MM/DD/[$LATEST]<32 hex>`, as Lambda names them). */
  readonly logStreamName?: string;
}

/** A log stream name as Lambda creates them per execution environment. */
export function logStreamName(now: number): string {
  const day = new Date(now).toISOString().slice(0, 10).replaceAll('-', '/');
  return `${day}/[$LATEST]${pooledRandomBytes(16).toString('hex')}`;
}

export function lambdaContext(init: ContextInit): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: init.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${init.region}:${init.accountId}:function:${init.functionName}`,
    memoryLimitInMB: String(init.memoryLimitInMB),
    awsRequestId: init.requestId,
    logGroupName: `/aws/lambda/${init.functionName}`,
    logStreamName: init.logStreamName ?? logStreamName(Date.now()),
    getRemainingTimeInMillis: () => Math.max(0, Math.round(init.remainingTimeMs())),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
