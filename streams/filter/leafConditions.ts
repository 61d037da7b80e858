import { isPatternObject, PatternNumber, type PatternValue } from './patternJson.js';

/**
 * The value list of one pattern field (docs/streams-and-lambda.md §3.6): `["INSERT", "MODIFY"]`, `[{"prefix":
 * "us-"}]`, `[{"numeric": [">", 0, "<=", 5]}]`... compiled once into a test. The values of a list are
 * OR-ed (docs/streams-and-lambda.md §3.5). Lambda's own operators only: the EventBridge-only forms of
 * docs/streams-and-lambda.md §3.7 are rejected (docs/streams-and-lambda.md §6.8 recommendation), as is
 * anything else that is not a documented form.
 */

/** The pattern is valid JSON but not a valid filter pattern (docs/streams-and-lambda.md §3.2). */
export class InvalidPatternError extends Error {
  override readonly name = 'InvalidPatternError';
}

/** How one field's value list matches the leaf values found at its path. */
export interface LeafTest {
  /**
   * `{"exists": false}`: matches when the path holds no leaf value (docs/streams-and-lambda.md §3.10, §3.11).
   */
  readonly whenAbsent: boolean;
  /** `{"exists": true}`: matches when the path holds at least one leaf value. */
  readonly whenPresent: boolean;
  /** Tests one leaf value; undefined when the list holds only `exists` conditions. */
  readonly test: ((value: unknown) => boolean) | undefined;
}

type ValueTest = (value: unknown) => boolean;

function invalid(reason: string): never {
  throw new InvalidPatternError(reason);
}

/**
 * Numbers compare by their JSON text (docs/streams-and-lambda.md §3.8): a record's numbers are JS numbers,
 * whose JSON text is `String(value)`, so the pattern literal `300` matches 300 and `300.0` or `3.0e2` never
 * do.
 */
function sameNumber(value: unknown, literal: PatternNumber): boolean {
  return typeof value === 'number' && String(value) === literal.text;
}

function exact(item: string | boolean | null | PatternNumber): ValueTest {
  if (item instanceof PatternNumber) return (value) => sameNumber(value, item);
  return (value) => value === item;
}

function stringOperand(operator: string, operand: PatternValue): string {
  if (typeof operand !== 'string') invalid(`${operator} takes a string`);
  return operand;
}

function anythingBut(operand: PatternValue): ValueTest {
  // docs/streams-and-lambda.md §3.6 list and single-value forms; docs/streams-and-lambda.md §3.7: the object
  // forms (prefix, suffix, wildcard, equals-ignore-case inside anything-but) are EventBridge-only.
  const list = Array.isArray(operand) ? operand : [operand];
  if (list.length === 0) invalid('anything-but needs at least one value');
  const excluded: ValueTest[] = list.map((item) => {
    if (typeof item === 'string' || item instanceof PatternNumber) return exact(item);
    return invalid('anything-but takes strings or numbers');
  });
  return (value) => !excluded.some((test) => test(value));
}

const LOWER = new Set(['>', '>=']);
const UPPER = new Set(['<', '<=']);

function compare(operator: string, bound: number): ValueTest {
  switch (operator) {
    case '=':
      return (value) => value === bound;
    case '>':
      return (value) => (value as number) > bound;
    case '>=':
      return (value) => (value as number) >= bound;
    case '<':
      return (value) => (value as number) < bound;
    default:
      return (value) => (value as number) <= bound;
  }
}

/**
 * `{"numeric": ["=", 100]}`, `[">", 10]`, `[">", 10, "<=", 20]` (docs/streams-and-lambda.md §3.6). Numeric
 * conditions match JSON numbers only, never DynamoDB `N` values, which are strings
 * (docs/streams-and-lambda.md §3.9).
 */
function numeric(operand: PatternValue): ValueTest {
  if (!Array.isArray(operand) || (operand.length !== 2 && operand.length !== 4))
    invalid('numeric takes one or two operator/number pairs');
  const tests: ValueTest[] = [];
  const seen: string[] = [];
  for (let index = 0; index < operand.length; index += 2) {
    const operator = operand[index];
    const bound = operand[index + 1];
    if (typeof operator !== 'string' || !(bound instanceof PatternNumber))
      invalid('numeric pairs are an operator and a number');
    if (operator !== '=' && !LOWER.has(operator) && !UPPER.has(operator))
      invalid(`unknown numeric operator ${operator}`);
    seen.push(operator);
    tests.push(compare(operator, bound.value));
  }
  if (seen.length === 2) {
    // A range is one lower and one upper bound; '=' stands alone.
    const [first, second] = seen as [string, string];
    const range = (LOWER.has(first) && UPPER.has(second)) || (UPPER.has(first) && LOWER.has(second));
    if (!range) invalid('a numeric range needs one lower and one upper bound');
  }
  return (value) => typeof value === 'number' && tests.every((test) => test(value));
}

/** One `{operator: operand}` element of a value list. */
function operatorTest(name: string, operand: PatternValue): ValueTest | 'exists-true' | 'exists-false' {
  switch (name) {
    case 'prefix': {
      const prefix = stringOperand(name, operand);
      return (value) => typeof value === 'string' && value.startsWith(prefix);
    }
    case 'suffix': {
      const suffix = stringOperand(name, operand);
      return (value) => typeof value === 'string' && value.endsWith(suffix);
    }
    case 'equals-ignore-case': {
      const expected = stringOperand(name, operand).toLowerCase();
      return (value) => typeof value === 'string' && value.toLowerCase() === expected;
    }
    case 'anything-but':
      return anythingBut(operand);
    case 'numeric':
      return numeric(operand);
    case 'exists':
      if (typeof operand !== 'boolean') invalid('exists takes true or false');
      return operand ? 'exists-true' : 'exists-false';
    default:
      // wildcard, cidr and unknown names (docs/streams-and-lambda.md §3.7).
      return invalid(`unsupported operator ${name}`);
  }
}

/**
 * Compiles a field's value list.
 * @throws InvalidPatternError for an empty list or an unsupported element.
 */
export function compileLeaf(list: PatternValue[]): LeafTest {
  if (list.length === 0) invalid('a value list may not be empty');
  let whenAbsent = false;
  let whenPresent = false;
  const tests: ValueTest[] = [];
  for (const item of list) {
    if (Array.isArray(item)) invalid('a value list may not nest lists');
    if (isPatternObject(item)) {
      if (item.size !== 1) invalid('an operator object has exactly one member');
      const [name, operand] = [...item][0]!;
      const test = operatorTest(name, operand);
      if (test === 'exists-true') whenPresent = true;
      else if (test === 'exists-false') whenAbsent = true;
      else tests.push(test);
    } else {
      tests.push(exact(item));
    }
  }
  const test: ValueTest | undefined =
    tests.length === 0 ? undefined : tests.length === 1 ? tests[0] : (value) => tests.some((t) => t(value));
  return { whenAbsent, whenPresent, test };
}
