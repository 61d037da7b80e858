/**
 * Terraform's operators and conversions on evaluated values
 * (https://developer.hashicorp.com/terraform/language/expressions/operators): numbers and bools
 * are taken from their text too, as Terraform converts `"3"` to 3 where a number is expected.
 * Each throws an Error saying why; the parser adds the expression.
 */

/** An expression that cannot be evaluated: the module turns it into an error at its place. */
export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
}

export function applyOperator(operator: string, left: unknown, right: unknown): unknown {
  switch (operator) {
    case '||':
      return asBool(left) || asBool(right);
    case '&&':
      return asBool(left) && asBool(right);
    case '==':
      return JSON.stringify(left) === JSON.stringify(right);
    case '!=':
      return JSON.stringify(left) !== JSON.stringify(right);
    case '<':
      return asNumber(left) < asNumber(right);
    case '>':
      return asNumber(left) > asNumber(right);
    case '<=':
      return asNumber(left) <= asNumber(right);
    case '>=':
      return asNumber(left) >= asNumber(right);
    case '+':
      return asNumber(left) + asNumber(right);
    case '-':
      return asNumber(left) - asNumber(right);
    case '*':
      return asNumber(left) * asNumber(right);
    case '/':
      return asNumber(left) / asNumber(right);
    default:
      return asNumber(left) % asNumber(right);
  }
}

export function asBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`${JSON.stringify(value)} is not a bool`);
}

export function asNumber(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || Number.isNaN(number))
    throw new Error(`${JSON.stringify(value)} is not a number`);
  return number;
}

/** A value written into text: strings, numbers and bools only, as Terraform converts them. */
export function textOf(value: unknown, fail: (reason: string) => never): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return fail(`${value === null ? 'null' : 'a list or map'} cannot be written into text`);
}

/** `value[index]` (a list's item, a map's member). */
export function indexInto(value: unknown, index: unknown, fail?: (reason: string) => never): unknown {
  const refuse = (reason: string): never => {
    if (fail !== undefined) return fail(reason);
    throw new ExpressionError(reason);
  };
  if (Array.isArray(value)) {
    const position = typeof index === 'string' ? Number(index) : index;
    if (typeof position !== 'number' || !Number.isInteger(position))
      return refuse('a list index must be a number');
    if (position < 0 || position >= value.length)
      return refuse(`index ${position} is out of range (${value.length} items)`);
    return value[position];
  }
  if (typeof value === 'object' && value !== null) {
    const key = String(index);
    if (!Object.hasOwn(value, key)) return refuse(`no '${key}' in the map`);
    return (value as Record<string, unknown>)[key];
  }
  return refuse(`${JSON.stringify(value)} has no '${String(index)}'`);
}
