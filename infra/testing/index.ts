import { createRequire } from 'node:module';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseDuration, VirtualClock } from '../../core/clock.js';
import type { InvocationRecord } from '../../streams/mapping/index.js';
import { BindingError } from '../bindings.js';
import type { EddyConfig } from '../config.js';
import type { InvocationLogEntry } from '../functions/invocationLog.js';
import { createLocalClient, loadLocalClientModules } from '../host/localClient.js';
import { createHostLogger, type Logger } from '../host/logger.js';
import { TableSetupError } from '../host/provision.js';
import { createLocalLambdaClient } from '../lambda-api/localClient.js';
import { LocalStack, type StackOptions } from '../stack/localStack.js';
import { loadStack, type StackDefinition } from '../stack/sources/index.js';
import { virtualClockRetries } from './virtualRetries.js';

// The SDK (`@aws-sdk/lib-dynamodb` and the client under it) loads with the test kit, not in the
// first test. With `require`: Node resolves the SDK's packages to their CommonJS builds either
// way (same classes as the test's own imports), and an ESM `import` of them also lexes them for
// export names, ~0.06 s of CPU more (bench/startup.ts).
const { DynamoDBDocumentClient: DocumentClient } = createRequire(import.meta.url)(
  '@aws-sdk/lib-dynamodb',
) as typeof import('@aws-sdk/lib-dynamodb');
loadLocalClientModules();

/**
 * The test kit: a whole local stack in process (no ports) on a virtual clock, for vitest or jest.
 *
 * @example
 * ```ts
 * import { startStack } from 'eddy/testing';
 * const stack = await startStack(config, { handlers: { onVote: handler } });
 * await stack.documentClient.send(new PutCommand({ TableName: 'Votes', Item: { pk: 'a', votes: 1 } }));
 * await stack.settled();                       // indexes caught up, mappings drained
 * expect(stack.invocations('onVote')).toHaveLength(1);
 * await stack.advance('48h');                  // TTL runs, retries back off, windows close
 * await stack.lambda.send(new ListEventSourceMappingsCommand({}));  // the Lambda API, in process
 * await stack.close();
 * ```
 */
export interface TestStackOptions extends Omit<StackOptions, 'clock' | 'startSchedules'> {
  /** Where virtual time starts (default 2026-01-01T00:00:00Z). */
  readonly startAt?: Date | number;
  /**
   * Also serve the stack on a loopback port and point the AWS SDK's environment at it
   * (`AWS_ENDPOINT_URL_DYNAMODB`, region, placeholder credentials), so handlers that create their
   * own clients reach this stack. Off by default: the test kit needs no port.
   */
  readonly endpoint?: boolean;
}

export class TestStack {
  /** A real DynamoDBClient answered in process. */
  readonly client: DynamoDBClient;
  /** The same, with native JavaScript values (`@aws-sdk/lib-dynamodb`). */
  readonly documentClient: DynamoDBDocumentClient;
  private lambdaClient: LambdaClient | undefined;
  /** The loopback URL, when started with `endpoint: true`. */
  endpoint: string | undefined;

  constructor(
    readonly stack: LocalStack,
    readonly clock: VirtualClock,
    /** Where virtual time started, and where `reset` rewinds it to. */
    readonly startedAt: number = clock.now(),
  ) {
    // The SDK's retries back off on the virtual clock (a throttled call retries at test speed).
    this.client = createLocalClient({
      pipeline: stack.pipeline(),
      client: { retryStrategy: virtualClockRetries(clock) },
    });
    this.documentClient = DocumentClient.from(this.client);
  }

  /**
   * A real LambdaClient answered in process by the stack's Lambda API: create functions and
   * event source mappings, invoke, list, disable... as a test written against AWS does. Made on
   * first use (the SDK's Lambda client loads then).
   */
  get lambda(): LambdaClient {
    this.lambdaClient ??= createLocalLambdaClient(this.stack.pipeline());
    return this.lambdaClient;
  }

  get engine() {
    return this.stack.engine;
  }

  /**
   * A real DynamoDBClient of another region of this stack, answered in process: the replicas of
   * a global table live there (docs/global-tables.md). Made once per region.
   */
  regionClient(region: string): DynamoDBClient {
    let client = this.regionClients.get(region);
    if (client === undefined) {
      client = createLocalClient({
        pipeline: this.stack.pipeline(),
        region,
        client: { retryStrategy: virtualClockRetries(this.clock) },
      });
      this.regionClients.set(region, client);
    }
    return client;
  }

  private readonly regionClients = new Map<string, DynamoDBClient>();

  /**
   * Moves virtual time forward (`'250ms'`, `'15m'`, `'48h'`, or ms): TTL runs, schedules fire,
   * retries back off, batching and tumbling windows close. Then waits until everything settled.
   */
  async advance(duration: string | number): Promise<void> {
    await this.clock.advance(duration, () => this.stack.settled());
  }

  /** Resolves when global indexes have caught up and every mapping has drained. */
  settled(): Promise<void> {
    return this.stack.settled();
  }

  /** What a function received and returned, oldest first. */
  invocations(functionName: string): readonly InvocationLogEntry[] {
    return this.stack.functions.invocations(functionName);
  }

  /**
   * The failed batches of a function's mappings, as their on-failure destinations received them
   * (the AWS invocation record, docs/streams-and-lambda.md §2.5.1).
   */
  destination(functionName: string): InvocationRecord[] {
    const records: InvocationRecord[] = [];
    for (const mapping of this.stack.mappings.list({ FunctionName: functionName }).EventSourceMappings) {
      const arn = mapping.DestinationConfig?.OnFailure?.Destination;
      if (arn === undefined || arn === '') continue;
      const queue = this.stack.destinations.queue(arn);
      records.push(...queue.records());
    }
    return records;
  }

  /**
   * Fault injection. `failNext('onVote', 2)`: the next 2 invocations of a function fail (the
   * handler does not run). `failNext('Orders', 'InternalServerError', 2)`: the next 2 requests on
   * a table answer InternalServerError (HTTP 500), as the SDK retries it (docs/capacity.md §6).
   */
  failNext(functionName: string, times?: number, message?: string): void;
  failNext(tableName: string, fault: 'InternalServerError', times?: number): void;
  failNext(name: string, second?: number | 'InternalServerError', third?: number | string): void {
    if (second === 'InternalServerError') {
      this.engine.capacity.injectFault(name, 'InternalServerError', typeof third === 'number' ? third : 1);
      return;
    }
    this.localFunction(name).failNext(second ?? 1, typeof third === 'string' ? third : undefined);
  }

  /**
   * Fault injection: the next `times` requests on a table are throttled, as its billing mode
   * throttles (ProvisionedThroughputExceededException or ThrottlingException, with
   * ThrottlingReasons), whether or not capacity is enforced (docs/capacity.md §6). Items of a
   * batch count one each and come back unprocessed.
   */
  throttleNext(tableName: string, times = 1): void {
    this.engine.capacity.injectFault(tableName, 'throttle', times);
  }

  /**
   * Enforces capacity on these tables (none named: every table) until `reset`, as
   * `eddy serve --capacity enforce` does (docs/capacity.md).
   */
  enforceCapacity(...tableNames: string[]): void {
    this.engine.capacity.enforce(tableNames.length === 0 ? undefined : tableNames);
  }

  /** Consumed units and throttle events per table and GSI, CloudWatch-style (docs/capacity.md §7). */
  capacityMetrics() {
    return this.engine.capacity.metrics.snapshot(this.clock.now());
  }

  /** Fault injection: the next `times` events reach the function twice (at-least-once delivery). */
  duplicateNext(functionName: string, times = 1): void {
    this.localFunction(functionName).duplicateNext(times);
  }

  /** Fault injection: global indexes stop following the table (stale reads) until resumed. */
  pauseIndexes(): void {
    this.stack.gsi.pause();
  }

  resumeIndexes(): void {
    this.stack.gsi.resume();
  }

  /**
   * Fault injection: writes to global tables stop reaching the other replicas (they queue, in
   * order) until resumed (docs/global-tables.md §3).
   */
  pauseReplication(): void {
    this.engine.replication.pause();
  }

  resumeReplication(): void {
    this.engine.replication.resume();
  }

  /** Sets how long a write takes to reach the other replicas (`'1s'`, ms; 0 by default here). */
  setReplicationLag(lag: string | number): void {
    this.engine.replication.lagMs = parseDuration(lag);
  }

  /** Runs the ttl-expirer now (as its schedule would), then waits until things settled. */
  async expireNow(): Promise<void> {
    await this.stack.ttl?.runNow();
    await this.stack.settled();
  }

  /**
   * Back to the state `startStack` gave, in about a millisecond: every table declared again and
   * empty, streams, on-failure destinations and invocation logs empty, mappings at their starting
   * positions, fault injections and paused indexes undone, virtual time back at `startedAt`.
   * Definitions, loaded handlers, clients and the endpoint stay. One stack per suite, a reset per
   * test, instead of a stack per test:
   *
   * ```ts
   * let stack: TestStack;
   * beforeAll(async () => { stack = await startStack(config); });
   * beforeEach(() => stack.reset());
   * afterAll(() => stack.close());
   * ```
   *
   * Reset once the test's work is done (`advance`, `settled`): a handler still running writes
   * into the reset tables when it finishes.
   */
  async reset(): Promise<void> {
    this.clock.reset(this.startedAt);
    this.stack.reset();
  }

  /**
   * Serves the stack on a loopback port (when `endpoint` did not already) with the event-flow
   * console (docs/console.md), whose clock buttons advance this stack's virtual clock. Answers
   * the console's URL, to open in a browser.
   */
  async openConsole(): Promise<string> {
    if (this.endpoint === undefined) this.endpoint = (await this.stack.listen({ port: 0 })).url;
    return this.stack.openConsole((ms) => this.advance(ms));
  }

  async close(): Promise<void> {
    for (const client of this.regionClients.values()) client.destroy();
    await this.stack.close();
  }

  private localFunction(functionName: string) {
    const fn = this.stack.functions.get(functionName);
    if (fn === undefined) throw new Error(`No function named ${functionName}`);
    return fn;
  }
}

/**
 * A stack from a SAM/CloudFormation template, a CDK cloud assembly or app, a serverless.yml or a
 * Terraform folder (docs/templates.md):
 * `startStack({ template: 'template.yaml', parameters: { Env: 'test' } })`. Relative paths start
 * from `baseDirectory` (default: the working directory).
 */
export interface TemplateTestStackOptions extends TestStackOptions {
  /** The template file, or a folder holding one (or a CDK app's cdk.out/). */
  readonly template: string;
  /** Template parameter values (`--parameter-overrides`). */
  readonly parameters?: Readonly<Record<string, string>>;
  /** CDK: run the app's synth first (needs cdk.json). */
  readonly cdk?: boolean;
  /** Serverless Framework: the stage (`--stage`). */
  readonly stage?: string;
  /** Terraform: input variables (`--var name=value`). */
  readonly variables?: Readonly<Record<string, string>>;
  /** Terraform: variable files (`--var-file`). */
  readonly varFiles?: readonly string[];
}

/** One logger for every stack: a pino instance costs a test's stack start ~1 ms. */
let silentLogger: Logger | undefined;

/** Starts a local stack for tests: in process, on a virtual clock, schedules driven by `advance`. */
export async function startStack(config: EddyConfig, options?: TestStackOptions): Promise<TestStack>;
export async function startStack(options: TemplateTestStackOptions): Promise<TestStack>;
export async function startStack(
  configOrTemplate: EddyConfig | TemplateTestStackOptions,
  configOptions: TestStackOptions = {},
): Promise<TestStack> {
  let config: EddyConfig;
  let options: TestStackOptions = configOptions;
  let definition: StackDefinition | undefined;
  if ('template' in configOrTemplate) {
    const { template, parameters, cdk, stage, variables, varFiles, ...rest } = configOrTemplate;
    definition = await loadStack({
      cwd: rest.baseDirectory ?? process.cwd(),
      template,
      ...(parameters === undefined ? {} : { parameters }),
      ...(cdk === undefined ? {} : { cdk }),
      ...(stage === undefined ? {} : { stage }),
      ...(variables === undefined ? {} : { variables }),
      ...(varFiles === undefined ? {} : { varFiles }),
      ...(rest.region === undefined ? {} : { region: rest.region }),
      ...(rest.accountId === undefined ? {} : { accountId: rest.accountId }),
    });
    config = definition!.config;
    options = { ...rest, baseDirectory: definition!.baseDirectory };
  } else config = configOrTemplate;
  const clock = new VirtualClock(options.startAt ?? Date.UTC(2026, 0, 1));
  const { endpoint, startAt: _, ...stackOptions } = options;
  const stack = await LocalStack.start(config, {
    logger: (silentLogger ??= createHostLogger({ level: 'silent' })),
    // A mapping's state changes are instant here unless a test asks for a moment (to meet
    // ResourceInUseException, advancing the virtual clock past it): docs/lambda-api.md §4.7.
    mappingTransitionMs: 0,
    ...stackOptions,
    clock,
  }).catch((error: unknown) => {
    // A table or binding the template declares but eddy refuses: the error points into the file.
    if (definition !== undefined && error instanceof TableSetupError)
      throw definition.errorAt(`tables[${error.index}]`, error.message, { cause: error });
    if (definition !== undefined && error instanceof BindingError)
      throw definition.errorAt(error.path, error.reason, { cause: error });
    throw error;
  });
  const testStack = new TestStack(stack, clock);
  if (endpoint) {
    // Listening also points the AWS SDK's environment at the stack (AWS_ENDPOINT_URL_<SERVICE>).
    testStack.endpoint = (await stack.listen({ port: 0 })).url;
  }
  return testStack;
}

export type { CapacityConfig, EddyConfig } from '../config.js';
export { defineConfig } from '../config.js';
export { type VirtualRetryOptions, virtualClockRetries } from './virtualRetries.js';
