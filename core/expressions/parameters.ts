import type { AttributeMap } from '../model/attributeValue.js';

/** Which expression and legacy parameters an operation has (for spec §5.1.6 and §5.4.2). */
export interface ExpressionParameterRules {
  operation: string;
}

/**
 * Request-level checks before any expression is parsed (spec §5.4.2, §5.1.6): legacy and
 * expression parameters mixed; names or values given without any expression.
 */
export function checkExpressionParameters(_operation: string, _input: Record<string, unknown>): void {}

/** `ExpressionAttributeNames must not be empty`; keys must be `#[A-Za-z0-9_]+` (spec §5.1.5). */
export function checkExpressionAttributeNames(_names: Record<string, string> | undefined): void {}

/**
 * `ExpressionAttributeValues must not be empty`; keys must be `:[A-Za-z0-9_]+`; a bad value reads
 * `ExpressionAttributeValues contains invalid value: <message> for key <k>` (spec §5.1.5).
 */
export function checkExpressionAttributeValues(
  _values: AttributeMap | undefined,
  _problem: { message: string; key: string | undefined } | undefined,
): void {}
