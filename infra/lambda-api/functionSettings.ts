import {
  type ConstraintViolation,
  InvalidParameterValueException,
  LambdaValidationException,
  validationError,
} from './errors.js';
import { optionalInteger, optionalObject, optionalString, optionalStringMap, quote } from './request.js';

/**
 * The settings CreateFunction and UpdateFunctionConfiguration take, with their defaults, limits
 * and Lambda's messages. Limits: https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
 * (timeout 900 s, memory 128..10240 MB, environment 4 KB); shapes and enums: the service model
 * (botocore `data/lambda/2015-03-31/service-2.json`).
 */
export interface FunctionSettings {
  readonly runtime: string;
  readonly role: string;
  readonly handler: string;
  readonly description: string;
  /** Seconds (default 3). */
  readonly timeout: number;
  /** MB (default 128). */
  readonly memorySize: number;
  /** Environment.Variables; undefined when none were set. */
  readonly environment: Readonly<Record<string, string>> | undefined;
  /** DeadLetterConfig.TargetArn: where failed asynchronous events go (an SQS queue or SNS topic). */
  readonly deadLetterTarget: string | undefined;
  readonly tracingMode: string;
  readonly architectures: readonly string[];
  /** /tmp size in MB (default 512). */
  readonly ephemeralStorage: number;
}

/** The service model's Runtime enum: a value outside it is a ValidationException. */
export const RUNTIMES = [
  'nodejs',
  'nodejs4.3',
  'nodejs6.10',
  'nodejs8.10',
  'nodejs10.x',
  'nodejs12.x',
  'nodejs14.x',
  'nodejs16.x',
  'java8',
  'java8.al2',
  'java11',
  'python2.7',
  'python3.6',
  'python3.7',
  'python3.8',
  'python3.9',
  'dotnetcore1.0',
  'dotnetcore2.0',
  'dotnetcore2.1',
  'dotnetcore3.1',
  'dotnet6',
  'dotnet8',
  'nodejs4.3-edge',
  'go1.x',
  'ruby2.5',
  'ruby2.7',
  'provided',
  'provided.al2',
  'nodejs18.x',
  'python3.10',
  'java17',
  'ruby3.2',
  'ruby3.3',
  'ruby3.4',
  'python3.11',
  'nodejs20.x',
  'provided.al2023',
  'python3.12',
  'java21',
  'python3.13',
  'nodejs22.x',
  'nodejs24.x',
  'python3.14',
  'java25',
  'dotnet10',
  'ruby4.0',
] as const;

/**
 * The Node.js runtimes Lambda lets a function be created or updated with (the deprecation table
 * of https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html: nodejs20.x is blocked for
 * creation from 2026-06-01 and for updates from 2026-07-01; older ones earlier).
 */
export const NODE_RUNTIMES = ['nodejs22.x', 'nodejs24.x'] as const;
const NEWEST_NODE_RUNTIME = 'nodejs24.x';

/** Variables Lambda sets itself and refuses in Environment ("Defined runtime environment variables"). */
const RESERVED_VARIABLES = new Set([
  '_HANDLER',
  '_X_AMZN_TRACE_ID',
  'AWS_DEFAULT_REGION',
  'AWS_REGION',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API',
  'LAMBDA_TASK_ROOT',
  'LAMBDA_RUNTIME_DIR',
]);

/** The 4 KB quota on all environment variables together, measured as their JSON text. */
const ENVIRONMENT_BYTES = 4096;
const ROLE_PATTERN = 'arn:(aws[a-zA-Z-]*)?:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+';
const VARIABLE_NAME_PATTERN = '[a-zA-Z]([a-zA-Z0-9_])+';
const HANDLER_PATTERN = '[^\\s]+';

export const SETTING_DEFAULTS = {
  description: '',
  timeout: 3,
  memorySize: 128,
  tracingMode: 'PassThrough',
  architectures: ['x86_64'],
  ephemeralStorage: 512,
} as const;

/** The members both operations take, read and type-checked. */
function readMembers(input: Record<string, unknown>) {
  const environment = optionalObject(input, 'Environment');
  const deadLetter = optionalObject(input, 'DeadLetterConfig');
  const tracing = optionalObject(input, 'TracingConfig');
  const storage = optionalObject(input, 'EphemeralStorage');
  const architectures = input.Architectures;
  if (architectures !== undefined && architectures !== null && !Array.isArray(architectures))
    throw new LambdaValidationException(
      `1 validation error detected: Value ${quote(architectures)} at 'architectures' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [x86_64, arm64]]`,
    );
  return {
    runtime: optionalString(input, 'Runtime'),
    role: optionalString(input, 'Role'),
    handler: optionalString(input, 'Handler'),
    description: optionalString(input, 'Description'),
    timeout: optionalInteger(input, 'Timeout'),
    memorySize: optionalInteger(input, 'MemorySize'),
    variables: environment === undefined ? undefined : (optionalStringMap(environment, 'Variables') ?? {}),
    deadLetterTarget: deadLetter === undefined ? undefined : (optionalString(deadLetter, 'TargetArn') ?? ''),
    tracingMode: tracing === undefined ? undefined : optionalString(tracing, 'Mode'),
    architectures: architectures as unknown[] | undefined | null,
    ephemeralStorage: storage === undefined ? undefined : optionalInteger(storage, 'Size'),
  };
}

/** The request validator's checks, reported together as Lambda does. */
function violationsOf(members: ReturnType<typeof readMembers>): ConstraintViolation[] {
  const violations: ConstraintViolation[] = [];
  const { runtime, role, handler, description, timeout, memorySize } = members;
  if (runtime !== undefined && !(RUNTIMES as readonly string[]).includes(runtime))
    violations.push({
      value: quote(runtime),
      member: 'runtime',
      constraint: `Member must satisfy enum value set: [${RUNTIMES.join(', ')}]`,
    });
  if (role !== undefined && !new RegExp(`^(?:${ROLE_PATTERN})$`).test(role))
    violations.push({
      value: quote(role),
      member: 'role',
      constraint: `Member must satisfy regular expression pattern: ${ROLE_PATTERN}`,
    });
  if (handler !== undefined) {
    if (handler.length > 128)
      violations.push({
        value: quote(handler),
        member: 'handler',
        constraint: 'Member must have length less than or equal to 128',
      });
    if (!new RegExp(`^(?:${HANDLER_PATTERN})$`).test(handler))
      violations.push({
        value: quote(handler),
        member: 'handler',
        constraint: `Member must satisfy regular expression pattern: ${HANDLER_PATTERN}`,
      });
  }
  if (description !== undefined && description.length > 256)
    violations.push({
      value: quote(description),
      member: 'description',
      constraint: 'Member must have length less than or equal to 256',
    });
  const ranges: [number | undefined, string, number, number][] = [
    [timeout, 'timeout', 1, 900],
    [memorySize, 'memorySize', 128, 10_240],
    [members.ephemeralStorage, 'ephemeralStorage.size', 512, 10_240],
  ];
  for (const [value, member, min, max] of ranges) {
    if (value === undefined) continue;
    if (value < min || value > max)
      violations.push({
        value: quote(value),
        member,
        constraint:
          value < min
            ? `Member must have value greater than or equal to ${min}`
            : `Member must have value less than or equal to ${max}`,
      });
  }
  if (members.tracingMode !== undefined && !['Active', 'PassThrough'].includes(members.tracingMode))
    violations.push({
      value: quote(members.tracingMode),
      member: 'tracingConfig.mode',
      constraint: 'Member must satisfy enum value set: [Active, PassThrough]',
    });
  const architectures = members.architectures;
  if (
    architectures !== undefined &&
    architectures !== null &&
    (architectures.length !== 1 || !['x86_64', 'arm64'].includes(architectures[0] as string))
  )
    violations.push({
      value: `'[${architectures.join(', ')}]'`,
      member: 'architectures',
      constraint:
        'Member must satisfy constraint: [Member must satisfy enum value set: [x86_64, arm64], Member must not be null]',
    });
  return violations;
}

/** A sensitive member's violation: the validator leaves its value out of the message. */
function checkVariableNames(variables: Readonly<Record<string, string>> | undefined): void {
  if (variables === undefined) return;
  const pattern = new RegExp(`^(?:${VARIABLE_NAME_PATTERN})$`);
  if (Object.keys(variables).every((name) => pattern.test(name))) return;
  throw new LambdaValidationException(
    `1 validation error detected: Value at 'environment.variables' failed to satisfy constraint: Map keys must satisfy constraint: [Member must satisfy regular expression pattern: ${VARIABLE_NAME_PATTERN}]`,
  );
}

/** The runtime eddy can run: a current Node.js one (docs/lambda-api.md §2.4). */
function checkRuntime(runtime: string): void {
  if ((NODE_RUNTIMES as readonly string[]).includes(runtime)) return;
  if (runtime.startsWith('nodejs'))
    // Lambda's message for a runtime blocked for creating and updating functions.
    throw new InvalidParameterValueException(
      `The runtime parameter of ${runtime} is no longer supported for creating or updating AWS Lambda functions. We recommend you use the new runtime (${NEWEST_NODE_RUNTIME}) while creating or updating functions.`,
    );
  throw new InvalidParameterValueException(
    `eddy runs Node.js functions only: the runtime ${runtime} is not supported here (use ${NODE_RUNTIMES.join(' or ')}).`,
  );
}

function checkEnvironment(variables: Readonly<Record<string, string>> | undefined): void {
  if (variables === undefined) return;
  const reserved = Object.keys(variables).filter((name) => RESERVED_VARIABLES.has(name));
  if (reserved.length > 0)
    throw new InvalidParameterValueException(
      `Lambda was unable to configure your environment variables because the environment variables you have provided contains reserved keys that are currently not supported for modification. Reserved keys used in this request: ${reserved.join(', ')}`,
    );
  const measured = JSON.stringify(variables);
  if (Buffer.byteLength(measured) > ENVIRONMENT_BYTES)
    throw new InvalidParameterValueException(
      `Lambda was unable to configure your environment variables because the environment variables you have provided exceeded the 4KB limit. String measured: ${measured}`,
    );
}

/** A dead-letter queue is an SQS queue or SNS topic ("Dead-letter queues", Lambda developer guide). */
function checkDeadLetterTarget(target: string | undefined): void {
  if (target === undefined || target === '') return;
  if (!/^arn:aws[a-zA-Z-]*:(sqs|sns):/.test(target))
    // eddy's wording: the service checks the ARN's service the same way.
    throw new InvalidParameterValueException(
      `The DeadLetterConfig TargetArn ${target} is not an Amazon SQS queue or Amazon SNS topic ARN.`,
    );
}

/**
 * Validates CreateFunction's settings and fills in the defaults.
 * @throws LambdaValidationException (all constraint violations at once), then
 *   InvalidParameterValueException for the semantic checks.
 */
export function createSettings(input: Record<string, unknown>): FunctionSettings {
  const members = readMembers(input);
  const violations = violationsOf(members);
  if (members.role === undefined)
    violations.unshift({ value: 'null', member: 'role', constraint: 'Member must not be null' });
  if (violations.length > 0) throw validationError(violations);
  checkVariableNames(members.variables);
  if (members.runtime === undefined || members.handler === undefined)
    // Lambda's message for a .zip package without them.
    throw new InvalidParameterValueException(
      'Runtime and Handler are mandatory parameters for functions created with deployment packages.',
    );
  checkRuntime(members.runtime);
  checkEnvironment(members.variables);
  checkDeadLetterTarget(members.deadLetterTarget);
  return {
    runtime: members.runtime,
    role: members.role!,
    handler: members.handler,
    description: members.description ?? SETTING_DEFAULTS.description,
    timeout: members.timeout ?? SETTING_DEFAULTS.timeout,
    memorySize: members.memorySize ?? SETTING_DEFAULTS.memorySize,
    environment: members.variables,
    deadLetterTarget: members.deadLetterTarget || undefined,
    tracingMode: members.tracingMode ?? SETTING_DEFAULTS.tracingMode,
    architectures: (members.architectures as string[] | undefined) ?? SETTING_DEFAULTS.architectures,
    ephemeralStorage: members.ephemeralStorage ?? SETTING_DEFAULTS.ephemeralStorage,
  };
}

/**
 * Applies UpdateFunctionConfiguration: members given replace the current ones (`Environment`
 * replaces every variable; `DeadLetterConfig: {TargetArn: ""}` removes the queue).
 * @throws as `createSettings`.
 */
export function updateSettings(current: FunctionSettings, input: Record<string, unknown>): FunctionSettings {
  const members = readMembers(input);
  const violations = violationsOf(members);
  if (violations.length > 0) throw validationError(violations);
  checkVariableNames(members.variables);
  if (members.runtime !== undefined) checkRuntime(members.runtime);
  checkEnvironment(members.variables);
  checkDeadLetterTarget(members.deadLetterTarget);
  return {
    runtime: members.runtime ?? current.runtime,
    role: members.role ?? current.role,
    handler: members.handler ?? current.handler,
    description: members.description ?? current.description,
    timeout: members.timeout ?? current.timeout,
    memorySize: members.memorySize ?? current.memorySize,
    environment: members.variables ?? current.environment,
    deadLetterTarget:
      members.deadLetterTarget === undefined
        ? current.deadLetterTarget
        : members.deadLetterTarget || undefined,
    tracingMode: members.tracingMode ?? current.tracingMode,
    architectures: (members.architectures as string[] | undefined) ?? current.architectures,
    ephemeralStorage: members.ephemeralStorage ?? current.ephemeralStorage,
  };
}
