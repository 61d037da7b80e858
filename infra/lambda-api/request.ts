import type { RestRequest } from '../host/restService.js';
import { type ConstraintViolation, InvalidRequestContentException, validationError } from './errors.js';

/**
 * Reading Lambda requests: the JSON body, typed members, and function names in every form
 * Lambda takes (`my-function`, `my-function:$LATEST`, `123456789012:function:my-function`, the
 * full ARN). Patterns and ranges are the service model's (botocore
 * `data/lambda/2015-03-31/service-2.json`); a value outside them is a ValidationException worded
 * as Lambda's request validator words it.
 */

/** The request body as a JSON object; an empty body is `{}`. */
export function jsonInput(request: RestRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body.toString('utf8'));
  } catch (error) {
    // eddy's wording after Lambda's prefix (docs/lambda-api.md §1.6).
    throw new InvalidRequestContentException(
      `Could not parse request body into json: ${(error as Error).message}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidRequestContentException('Could not parse request body into json: not a JSON object');
  return parsed as Record<string, unknown>;
}

function wrongType(member: string, expected: string): InvalidRequestContentException {
  return new InvalidRequestContentException(
    `Could not parse request body into json: ${member} must be ${expected}`,
  );
}

export function optionalString(input: Record<string, unknown>, member: string): string | undefined {
  const value = input[member];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(member, 'a string');
  return value;
}

export function optionalInteger(input: Record<string, unknown>, member: string): number | undefined {
  const value = input[member];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(member, 'an integer');
  return value;
}

export function optionalBoolean(input: Record<string, unknown>, member: string): boolean | undefined {
  const value = input[member];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw wrongType(member, 'a boolean');
  return value;
}

export function optionalObject(
  input: Record<string, unknown>,
  member: string,
): Record<string, unknown> | undefined {
  const value = input[member];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw wrongType(member, 'an object');
  return value as Record<string, unknown>;
}

/** A string map (Environment.Variables): a null-prototype record, so `__proto__` stays data. */
export function optionalStringMap(
  input: Record<string, unknown>,
  member: string,
): Record<string, string> | undefined {
  const value = optionalObject(input, member);
  if (value === undefined) return undefined;
  const map: Record<string, string> = Object.create(null);
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw wrongType(`${member}.${key}`, 'a string');
    map[key] = entry;
  }
  return map;
}

/** `'value'` as the validator quotes it (`null` unquoted). */
export function quote(value: unknown): string {
  return value === undefined || value === null ? 'null' : `'${String(value)}'`;
}

/** Integer ranges, checked together: all violations in one ValidationException. */
export function checkRanges(
  checks: readonly [value: number | undefined, member: string, min: number, max: number | undefined][],
  extra: ConstraintViolation[] = [],
): void {
  const violations = [...extra];
  for (const [value, member, min, max] of checks) {
    if (value === undefined) continue;
    if (value < min)
      violations.push({
        value: quote(value),
        member,
        constraint: `Member must have value greater than or equal to ${min}`,
      });
    else if (max !== undefined && value > max)
      violations.push({
        value: quote(value),
        member,
        constraint: `Member must have value less than or equal to ${max}`,
      });
  }
  if (violations.length > 0) throw validationError(violations);
}

/** `NamespacedFunctionName`: the name, ARN or partial ARN of Get/Invoke/Delete (max 256). */
export const NAMESPACED_FUNCTION_NAME_PATTERN =
  '(arn:(aws[a-zA-Z-]*)?:lambda:)?([a-z]{2}((-gov)|(-iso([a-z]?)))?-[a-z]+-\\d{1}:)?(\\d{12}:)?(function:)?([a-zA-Z0-9-_\\.]+)(:(\\$LATEST(\\.PUBLISHED)?|[a-zA-Z0-9-_]+))?';
/** `FunctionName`: the name or ARN of Create and the Update operations (max 140). */
export const FUNCTION_NAME_PATTERN =
  '(arn:(aws[a-zA-Z-]*)?:lambda:)?([a-z]{2}((-gov)|(-iso([a-z]?)))?-[a-z]+-\\d{1}:)?(\\d{12}:)?(function:)?([a-zA-Z0-9-_]+)(:(\\$LATEST|[a-zA-Z0-9-_]+))?';

export interface FunctionReference {
  readonly name: string;
  /** A version or alias named in the name (`my-function:v1`), if any. */
  readonly qualifier: string | undefined;
}

/**
 * A function's name (and qualifier) from any form Lambda takes.
 * @throws LambdaValidationException when it does not match the service's pattern.
 */
export function functionReference(
  value: unknown,
  options: { readonly pattern?: string; readonly maxLength?: number } = {},
): FunctionReference {
  const pattern = options.pattern ?? NAMESPACED_FUNCTION_NAME_PATTERN;
  const maxLength = options.maxLength ?? 256;
  if (typeof value !== 'string' || value === '')
    throw validationError([
      {
        value: quote(value === '' ? undefined : value),
        member: 'functionName',
        constraint:
          value === '' ? 'Member must have length greater than or equal to 1' : 'Member must not be null',
      },
    ]);
  const violations: ConstraintViolation[] = [];
  if (value.length > maxLength)
    violations.push({
      value: quote(value),
      member: 'functionName',
      constraint: `Member must have length less than or equal to ${maxLength}`,
    });
  const matches = new RegExp(`^(?:${pattern})$`).test(value);
  if (!matches)
    violations.push({
      value: quote(value),
      member: 'functionName',
      constraint: `Member must satisfy regular expression pattern: ${pattern}`,
    });
  if (violations.length > 0) throw validationError(violations);
  // Past the pattern, the name follows `function:` (ARN forms) or starts the value.
  const marker = value.lastIndexOf('function:');
  const [name, qualifier] = (marker === -1 ? value : value.slice(marker + 'function:'.length)).split(':');
  return { name: name!, qualifier };
}
