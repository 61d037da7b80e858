import { ValidationException } from '../errors/index.js';
import { ExpressionMessages } from '../expressions/errors.js';
import type { DocumentPath } from '../expressions/index.js';
import type { Condition, Operand } from '../expressions/resolved.js';
import { type AttributeType, AttributeTypes, type AttributeValue, typeOf } from '../model/attributeValue.js';
import { compareScalars } from '../model/compare.js';
import type { CallExpr, Expr, PathExpr } from './ast.js';
import { PartiqlMessages, positioned } from './errors.js';
import { IS_TYPES } from './keywords.js';
import { isValueExpression, literalValue, MISSING } from './values.js';

/**
 * A WHERE clause as the engine's resolved condition tree (`core/expressions/resolved.ts`), so
 * PartiQL filters and write conditions are evaluated by the same code as FilterExpression and
 * ConditionExpression (docs/partiql.md §3.2). The checks DynamoDB makes on the statement run here,
 * with its messages: unknown functions, operand counts, document-path operands, operand types of
 * ordering operators.
 */
export class ConditionBuilder {
  /** Every document path the condition reads. */
  readonly paths: DocumentPath[] = [];

  constructor(private readonly parameters: readonly AttributeValue[]) {}

  condition(expression: Expr): Condition {
    switch (expression.type) {
      case 'and':
      case 'or':
        return {
          kind: expression.type,
          left: this.condition(expression.left),
          right: this.condition(expression.right),
        };
      case 'not':
        return { kind: 'not', operand: this.condition(expression.operand) };
      case 'compare':
        return this.compare(expression.operator, expression.left, expression.right);
      case 'between': {
        const operands = [expression.operand, expression.lower, expression.upper].map((part) =>
          this.operand(part),
        );
        orderedOperands('BETWEEN', operands);
        const [, lower, upper] = operands;
        if (lower?.kind === 'value' && upper?.kind === 'value') betweenBounds(lower.value, upper.value);
        return { kind: 'between', operand: operands[0]!, lower: lower!, upper: upper! };
      }
      case 'in':
        return {
          kind: 'in',
          operand: this.operand(expression.operand),
          list: this.candidates(expression.list),
        };
      case 'is':
        return this.is(expression.operand, expression.test, expression.negated);
      case 'call':
        return this.call(expression);
      case 'literal':
        if (expression.value.kind === 'boolean')
          return expression.value.value ? TRUE : { kind: 'not', operand: TRUE };
        break;
    }
    throw new ValidationException(PartiqlMessages.unsupportedExpression);
  }

  private compare(operator: '=' | '<>' | '<' | '<=' | '>' | '>=', left: Expr, right: Expr): Condition {
    // `attribute_exists(a) = true`: a condition function compared with a boolean.
    for (const [call, other] of [
      [left, right],
      [right, left],
    ] as const) {
      if (
        call.type === 'call' &&
        call.name !== 'size' &&
        other.type === 'literal' &&
        other.value.kind === 'boolean'
      ) {
        const condition = this.call(call);
        const holds = (operator === '=') === other.value.value;
        if (operator !== '=' && operator !== '<>') break;
        return holds ? condition : { kind: 'not', operand: condition };
      }
    }
    // `a = MISSING`, `a <> MISSING`: whether the attribute is absent or present.
    const missingSide = isMissing(right) ? left : isMissing(left) ? right : undefined;
    if (missingSide !== undefined && (operator === '=' || operator === '<>')) {
      const path = this.path(missingSide);
      return { kind: operator === '=' ? 'notExists' : 'exists', path };
    }
    const operands = [this.operand(left), this.operand(right)];
    if (operator !== '=' && operator !== '<>') orderedOperands(operator, operands);
    return { kind: 'compare', operator, left: operands[0]!, right: operands[1]! };
  }

  private is(operand: Expr, test: string, negated: boolean): Condition {
    let condition: Condition;
    if (test === 'MISSING') {
      condition = { kind: 'notExists', path: this.path(operand) };
    } else {
      const value = this.operand(operand);
      const types = IS_TYPES[test] ?? [];
      condition = types
        .map((type): Condition => ({ kind: 'type', operand: value, type: type as AttributeType }))
        .reduce((left, right) => ({ kind: 'or', left, right }));
    }
    return negated ? { kind: 'not', operand: condition } : condition;
  }

  /** A function used as a condition (docs/partiql.md §2.4). */
  private call(call: CallExpr): Condition {
    const arity = CONDITION_FUNCTIONS[call.name];
    if (arity === undefined) throw positioned(PartiqlMessages.unrecognizedFunction(call.name), call.position);
    if (call.args.length !== arity)
      throw new ValidationException(ExpressionMessages.operandCount(call.name, call.args.length));
    switch (call.name) {
      case 'attribute_exists':
      case 'attribute_not_exists': {
        const argument = call.args[0]!;
        if (argument.type !== 'path')
          throw new ValidationException(ExpressionMessages.requiresPath(call.name));
        return { kind: call.name === 'attribute_exists' ? 'exists' : 'notExists', path: this.path(argument) };
      }
      case 'attribute_type': {
        const operand = this.operand(call.args[0]!);
        const type = this.operand(call.args[1]!);
        if (type.kind !== 'value' || typeOf(type.value) !== 'S')
          throw new ValidationException(
            ExpressionMessages.operandType(call.name, type.kind === 'value' ? typeOf(type.value) : 'N'),
          );
        const name = (type.value as { S: string }).S;
        if (!(AttributeTypes as readonly string[]).includes(name))
          throw new ValidationException(ExpressionMessages.invalidTypeName(name));
        return { kind: 'type', operand, type: name as AttributeType };
      }
      case 'begins_with': {
        const operands = call.args.map((argument) => this.operand(argument));
        for (const operand of operands) {
          if (operand.kind !== 'value') continue;
          const type = typeOf(operand.value);
          if (type !== 'S' && type !== 'B')
            throw new ValidationException(ExpressionMessages.operandType(call.name, type));
        }
        return { kind: 'beginsWith', operand: operands[0]!, prefix: operands[1]! };
      }
      default:
        return {
          kind: 'contains',
          operand: this.operand(call.args[0]!),
          member: this.operand(call.args[1]!),
        };
    }
  }

  /** An operand: a document path, a value, or size(operand). */
  operand(expression: Expr): Operand {
    if (expression.type === 'path') return { kind: 'path', path: this.path(expression) };
    if (isValueExpression(expression)) {
      const value = literalValue(expression, this.parameters);
      if (value === MISSING) throw new ValidationException(PartiqlMessages.unsupportedExpression);
      return { kind: 'value', value };
    }
    if (expression.type === 'call') {
      if (expression.name !== 'size') {
        if (CONDITION_FUNCTIONS[expression.name] === undefined)
          throw positioned(PartiqlMessages.unrecognizedFunction(expression.name), expression.position);
        throw new ValidationException(ExpressionMessages.misusedFunction(expression.name));
      }
      if (expression.args.length !== 1)
        throw new ValidationException(ExpressionMessages.operandCount('size', expression.args.length));
      const inner = this.operand(expression.args[0]!);
      if (inner.kind === 'value') {
        const type = typeOf(inner.value);
        if (type === 'N' || type === 'BOOL' || type === 'NULL')
          throw new ValidationException(ExpressionMessages.operandType('size', type));
      }
      return { kind: 'size', operand: inner };
    }
    throw new ValidationException(PartiqlMessages.unsupportedExpression);
  }

  /** IN's candidates: the elements of a list, bag or parenthesised sequence, or of a list parameter. */
  private candidates(list: Expr): Operand[] {
    if (list.type === 'list' || list.type === 'bag')
      return list.elements.map((element) => this.operand(element));
    const value = this.operand(list);
    if (value.kind === 'value' && 'L' in value.value)
      return (value.value as { L: AttributeValue[] }).L.map((element) => ({ kind: 'value', value: element }));
    return [value];
  }

  path(expression: Expr): DocumentPath {
    if (expression.type !== 'path') throw new ValidationException(ExpressionMessages.requiresPath('IS'));
    const path = documentPath(expression);
    this.paths.push(path);
    return path;
  }
}

const TRUE: Condition = { kind: 'true' };

/** Condition functions and their operand counts; names are case-insensitive in PartiQL. */
const CONDITION_FUNCTIONS: Readonly<Record<string, number | undefined>> = {
  attribute_exists: 1,
  attribute_not_exists: 1,
  attribute_type: 2,
  begins_with: 2,
  contains: 2,
  size: 1,
};

export function documentPath(expression: PathExpr): DocumentPath {
  return [
    expression.name,
    ...expression.steps.map((step) => (step.kind === 'name' ? step.name : step.index)),
  ];
}

function isMissing(expression: Expr): boolean {
  return expression.type === 'literal' && expression.value.kind === 'missing';
}

const ORDERED = new Set(['N', 'S', 'B']);

/** Ordering operators and BETWEEN take N, S or B values only (docs/partiql.md §5.2). */
function orderedOperands(operator: string, operands: readonly Operand[]): void {
  for (const operand of operands) {
    if (operand.kind !== 'value') continue;
    const type = typeOf(operand.value);
    if (!ORDERED.has(type)) throw new ValidationException(ExpressionMessages.operandType(operator, type));
  }
}

function boundText(value: AttributeValue): string {
  const type = typeOf(value);
  return `{${type}:${(value as Record<string, string>)[type]}}`;
}

function betweenBounds(lower: AttributeValue, upper: AttributeValue): void {
  if (typeOf(lower) !== typeOf(upper))
    throw new ValidationException(ExpressionMessages.betweenTypes(boundText(lower), boundText(upper)));
  if ((compareScalars(lower, upper) ?? 0) > 0)
    throw new ValidationException(ExpressionMessages.betweenOrder(boundText(lower), boundText(upper)));
}
