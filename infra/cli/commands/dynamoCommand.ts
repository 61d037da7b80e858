import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CliIo } from '../program.js';
import type { Progress } from '../progress.js';
import {
  checkCredentialFlags,
  EndpointError,
  optionalConfig,
  type ServiceCliOptions,
  UsageError,
} from './serviceOptions.js';

/** Options of the commands that wait on a background job (`--no-progress`, `--no-wait`). */
export interface JobCliOptions extends ServiceCliOptions {
  readonly progress?: boolean;
  readonly wait?: boolean;
}

/**
 * Runs a command against a DynamoDB endpoint (a running eddy by default, or AWS): a service's
 * answer is printed as it is, a refused connection says how to start eddy (exit 1), a usage
 * mistake exits 2.
 */
export async function runDynamo(
  io: CliIo,
  name: string,
  options: ServiceCliOptions,
  work: (client: DynamoDBClient) => Promise<void>,
): Promise<void> {
  let client: DynamoDBClient | undefined;
  let endpoint: string | undefined;
  try {
    checkCredentialFlags(options);
    const { config } = await optionalConfig(options, io.cwd);
    const { clientConfig, serviceTarget } = await import('../../replay/serviceTarget.js');
    const target = serviceTarget(options, config);
    endpoint = target.endpoint;
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    client = new DynamoDBClient(clientConfig(target));
    await work(client);
  } catch (error) {
    const wrapped =
      error instanceof UsageError || (error as { $fault?: unknown }).$fault !== undefined
        ? error
        : new EndpointError(error, endpoint);
    io.printError(`eddy ${name}: ${wrapped instanceof Error ? wrapped.message : String(wrapped)}`);
    io.exit(error instanceof UsageError ? 2 : 1);
  } finally {
    client?.destroy();
  }
}

/** How often a command asks how its job is doing (ms). */
export const POLL_MS = 200;

/**
 * Asks `poll` until it says the job is done, moving the bar to the count it reports. Returns the
 * last answer. The bar is stopped before the caller prints anything.
 */
export async function waitFor<T>(
  poll: () => Promise<{ done: boolean; count: number; answer: T }>,
  progress: Progress,
): Promise<T> {
  let shown = 0;
  try {
    for (;;) {
      const { done, count, answer } = await poll();
      if (count > shown) {
        progress.increment(count - shown);
        shown = count;
      }
      if (done) return answer;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    progress.stop();
  }
}

/** A bar (with a total) or a counter, drawn on the CLI's progress stream unless turned off. */
export async function progressFor(
  io: CliIo,
  options: JobCliOptions,
  label: string,
  unit: string,
  total?: number,
): Promise<Progress> {
  const { createCounter, createProgress } = await import('../progress.js');
  const common = {
    label,
    unit,
    enabled: options.progress !== false,
    ...(io.progress === undefined ? {} : { stream: io.progress }),
  };
  return total === undefined ? createCounter(common) : createProgress({ ...common, total });
}

/** `2026-01-01T12:00:00Z` or epoch seconds → a Date; a usage error otherwise. */
export function parseTime(value: string, flag: string): Date {
  const date = /^\d+(\.\d+)?$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`${flag} must be a time such as 2026-01-01T12:00:00Z (or epoch seconds)`);
  return date;
}
