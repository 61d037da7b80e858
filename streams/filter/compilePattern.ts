import { compileLeaf, InvalidPatternError, type LeafTest } from './leafConditions.js';
import { isPatternObject, type PatternObject, PatternSyntaxError, parsePatternJson } from './patternJson.js';

/**
 * One filter pattern (docs/streams-and-lambda.md §3) compiled into a function over the Lambda-event record
 * JSON.
 *
 * Matching follows EventBridge's model, which Lambda filtering uses: a pattern is a set of
 * paths, each with a value list; `$or` expands into alternatives, so a pattern is an OR of flat
 * rules; a rule matches when every path matches (AND, docs/streams-and-lambda.md §3.5). The values found at a
 * path are the leaf values reached by following the path, stepping into every element of any array on the way
 * (docs/streams-and-lambda.md §3.13: "matches if any element matches"). Objects are never leaf values, so
 * `exists` sees leaf nodes only (docs/streams-and-lambda.md §3.10) and `{"exists": false}` on an intermediate
 * node matches (docs/streams-and-lambda.md §3.11).
 */

/** A compiled pattern: does this record match? */
export type RecordMatcher = (record: unknown) => boolean;

interface PathCondition {
  readonly path: readonly string[];
  readonly leaf: LeafTest;
}
type Rule = readonly PathCondition[];

/** Patterns longer than this many flat rules are refused (a guard against `$or` blow-up). */
const MAX_RULES = 1024;

function cross(left: readonly Rule[], right: readonly Rule[]): Rule[] {
  const rules: Rule[] = [];
  for (const a of left) for (const b of right) rules.push([...a, ...b]);
  if (rules.length > MAX_RULES) throw new InvalidPatternError('pattern too complex');
  return rules;
}

/** Flattens an object pattern into rules (OR of ANDs), paths prefixed with `prefix`. */
function expand(object: PatternObject, prefix: readonly string[]): Rule[] {
  if (object.size === 0) throw new InvalidPatternError('empty object in pattern');
  let rules: Rule[] = [[]];
  for (const [name, value] of object) {
    if (name === '$or') {
      // `$or` takes a list of at least two patterns, evaluated where it stands
      // (docs/streams-and-lambda.md §3.6).
      if (!Array.isArray(value) || value.length < 2)
        throw new InvalidPatternError('$or takes a list of at least two patterns');
      const alternatives: Rule[] = [];
      for (const alternative of value) {
        if (!isPatternObject(alternative)) throw new InvalidPatternError('$or alternatives are objects');
        alternatives.push(...expand(alternative, prefix));
      }
      rules = cross(rules, alternatives);
    } else if (Array.isArray(value)) {
      const condition: PathCondition = { path: [...prefix, name], leaf: compileLeaf(value) };
      rules = rules.map((rule) => [...rule, condition]);
    } else if (isPatternObject(value)) {
      rules = cross(rules, expand(value, [...prefix, name]));
    } else {
      // A bare value where a list is expected: `{"eventName": "INSERT"}`.
      throw new InvalidPatternError(`the value of ${name} must be a list or an object`);
    }
  }
  return rules;
}

/**
 * Visits the leaf values at `path` under `node`; stops early when `visit` returns true.
 * Member lookups are own properties only: `constructor` or `__proto__` are data, never inherited.
 */
function visitLeaves(
  node: unknown,
  path: readonly string[],
  depth: number,
  visit: (value: unknown) => boolean,
): boolean {
  if (Array.isArray(node)) {
    for (const element of node) if (visitLeaves(element, path, depth, visit)) return true;
    return false;
  }
  if (depth === path.length) {
    // Objects are not leaves (docs/streams-and-lambda.md §3.10).
    return node !== null && typeof node === 'object' ? false : visit(node);
  }
  if (node === null || typeof node !== 'object') return false;
  const name = path[depth]!;
  if (!Object.hasOwn(node, name)) return false;
  return visitLeaves((node as Record<string, unknown>)[name], path, depth + 1, visit);
}

function conditionHolds(record: unknown, { path, leaf }: PathCondition): boolean {
  let present = false;
  let matched = false;
  const test = leaf.test;
  visitLeaves(record, path, 0, (value) => {
    present = true;
    if (test?.(value)) matched = true;
    return matched;
  });
  if (!present) return leaf.whenAbsent;
  return leaf.whenPresent || matched;
}

/**
 * Compiles one `Pattern` string.
 * @throws InvalidPatternError when it is not JSON or not a valid Lambda filter pattern.
 *
 * @example
 * ```ts
 * const isInsert = compilePattern('{"eventName": ["INSERT"]}');
 * isInsert({ eventName: 'INSERT' }); // true
 * ```
 */
export function compilePattern(text: string): RecordMatcher {
  let parsed: ReturnType<typeof parsePatternJson>;
  try {
    parsed = parsePatternJson(text);
  } catch (error) {
    if (error instanceof PatternSyntaxError) throw new InvalidPatternError(error.message, { cause: error });
    throw error;
  }
  if (!isPatternObject(parsed)) throw new InvalidPatternError('a pattern is a JSON object');
  const rules = expand(parsed, []);
  if (rules.length === 1) {
    const [rule] = rules as [Rule];
    if (rule.length === 1) {
      const [only] = rule as [PathCondition];
      return (record) => conditionHolds(record, only);
    }
    return (record) => rule.every((condition) => conditionHolds(record, condition));
  }
  return (record) => rules.some((rule) => rule.every((condition) => conditionHolds(record, condition)));
}
