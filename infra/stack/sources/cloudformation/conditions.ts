import { isObject } from './shapes.js';
import type { TemplatePath } from './templateFile.js';

/**
 * The `Conditions` section and the condition functions (`Fn::Equals`, `Fn::Not`, `Fn::And`,
 * `Fn::Or`, `{ Condition: name }`), each named condition evaluated once.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/conditions-section-structure.html
 */
export interface ConditionContext {
  /** Evaluates a value's intrinsic functions (the resolver's). */
  readonly evaluate: (value: unknown, path: TemplatePath) => unknown;
  readonly fail: (path: TemplatePath, reason: string) => never;
}

const CONDITION_FUNCTIONS = ['Fn::Equals', 'Fn::Not', 'Fn::And', 'Fn::Or'];

export class Conditions {
  private readonly values = new Map<string, boolean>();
  private readonly evaluating = new Set<string>();

  constructor(
    private readonly section: Readonly<Record<string, unknown>>,
    private readonly context: ConditionContext,
  ) {}

  /** A named condition of the Conditions section. */
  condition(name: string, path: TemplatePath): boolean {
    const known = this.values.get(name);
    if (known !== undefined) return known;
    if (!Object.hasOwn(this.section, name))
      return this.context.fail(path, `no condition '${name}' in Conditions`);
    if (this.evaluating.has(name))
      return this.context.fail(['Conditions', name], 'the condition refers to itself');
    this.evaluating.add(name);
    try {
      const value = this.conditionValue(this.section[name], ['Conditions', name]);
      this.values.set(name, value);
      return value;
    } finally {
      this.evaluating.delete(name);
    }
  }

  /** A condition expression: a condition function or `{ Condition: name }`. */
  private conditionValue(value: unknown, path: TemplatePath): boolean {
    if (isObject(value) && Object.keys(value).length === 1) {
      if (typeof value.Condition === 'string') return this.condition(value.Condition, [...path, 'Condition']);
      const [key] = Object.keys(value) as [string];
      if (CONDITION_FUNCTIONS.includes(key)) return this.conditionFunction(key, value[key], [...path, key]);
    }
    const resolved = this.context.evaluate(value, path);
    if (resolved === true || resolved === 'true') return true;
    if (resolved === false || resolved === 'false') return false;
    return this.context.fail(
      path,
      'a condition must be Fn::Equals, Fn::Not, Fn::And, Fn::Or or { Condition: name }',
    );
  }

  conditionFunction(name: string, argument: unknown, path: TemplatePath): boolean {
    if (!Array.isArray(argument)) return this.context.fail(path, `${name} takes a list`);
    if (name === 'Fn::Equals') {
      if (argument.length !== 2) return this.context.fail(path, 'Fn::Equals takes [value, value]');
      const a = this.context.evaluate(argument[0], [...path, 0]);
      const b = this.context.evaluate(argument[1], [...path, 1]);
      // CloudFormation compares the values' text: `!Equals [!Ref Count, 3]` with Count "3" holds.
      return JSON.stringify(normalised(a)) === JSON.stringify(normalised(b));
    }
    const values = argument.map((item, index) => this.conditionValue(item, [...path, index]));
    if (name === 'Fn::Not') {
      if (values.length !== 1) return this.context.fail(path, 'Fn::Not takes [condition]');
      return !values[0];
    }
    // Fn::And and Fn::Or take 2 to 10 conditions.
    if (values.length < 2 || values.length > 10)
      return this.context.fail(path, `${name} takes 2 to 10 conditions`);
    return name === 'Fn::And' ? values.every(Boolean) : values.some(Boolean);
  }
}

/** Scalars as text, as CloudFormation compares them. */
function normalised(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(normalised);
  return value;
}
