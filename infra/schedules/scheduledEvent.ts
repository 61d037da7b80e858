import type { Context, ScheduledEvent } from 'aws-lambda';

/**
 * The EventBridge "Scheduled Event" a rule sends to its target (docs/streams-and-lambda.md §4.9,
 * https://docs.aws.amazon.com/lambda/latest/dg/with-eventbridge-scheduler.html), and a Lambda
 * context for the invocation. `time` is ISO 8601 to the second with a `Z`, as EventBridge writes it.
 */
export interface ScheduledEventInit {
  /** When the rule fired, epoch ms. */
  time: number;
  /** The rule's name (it ends the ARN in `resources`). */
  ruleName: string;
  accountId?: string;
  region?: string;
  /** The event id (default: derived from the rule and the time, so virtual runs are reproducible). */
  id?: string;
}

export function scheduledEvent(init: ScheduledEventInit): ScheduledEvent<Record<string, never>> {
  const accountId = init.accountId ?? '000000000000';
  const region = init.region ?? 'us-east-1';
  return {
    version: '0',
    id: init.id ?? eventId(init.ruleName, init.time),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: accountId,
    time: new Date(init.time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:events:${region}:${accountId}:rule/${init.ruleName}`],
    detail: {},
  };
}

/** A UUID-shaped id from the rule name and time (deterministic). */
function eventId(ruleName: string, time: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < ruleName.length; i++) hash = Math.imul(hash ^ ruleName.charCodeAt(i), 0x01000193);
  const hex = (hash >>> 0).toString(16).padStart(8, '0') + time.toString(16).padStart(24, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface InvocationContextInit {
  functionName: string;
  requestId: string;
  accountId?: string;
  region?: string;
  /** Remaining time the function reports, ms (default 60 s). */
  timeoutMs?: number;
}

/** A Lambda `Context` for one local invocation. */
export function invocationContext(init: InvocationContextInit): Context {
  const accountId = init.accountId ?? '000000000000';
  const region = init.region ?? 'us-east-1';
  const timeoutMs = init.timeoutMs ?? 60_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: init.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${accountId}:function:${init.functionName}`,
    memoryLimitInMB: '128',
    awsRequestId: init.requestId,
    logGroupName: `/aws/lambda/${init.functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => timeoutMs,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
