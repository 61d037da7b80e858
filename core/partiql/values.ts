import { ValidationException } from '../errors/index.js';
import { type AttributeValue, newAttributeMap, typeOf } from '../model/attributeValue.js';
import { compareNumbers, normaliseNumber } from '../model/number.js';
import type { Expr } from './ast.js';
import { PartiqlMessages, positioned } from './errors.js';

/** A value that is not there: PartiQL's MISSING literal. */
export const MISSING = Symbol('MISSING');
export type PartiqlValue = AttributeValue | typeof MISSING;

/**
 * Literals and parameters as DynamoDB AttributeValues (docs/partiql.md §2.3): strings → S, numbers →
 * N (checked by DynamoDB's number rules, the message naming where the literal sits: `under root`,
 * `under root.x`, `under root[1]`), true/false → BOOL, NULL → NULL, tuples → M, lists → L, bags →
 * SS, NS or BS by their members' type. Parameters are AttributeValues already.
 */
export function literalValue(
  expression: Expr,
  parameters: readonly AttributeValue[],
  path = 'root',
): PartiqlValue {
  switch (expression.type) {
    case 'literal': {
      const literal = expression.value;
      switch (literal.kind) {
        case 'string':
          return { S: literal.text };
        case 'number':
          return numberValue(literal.text, path);
        case 'boolean':
          return { BOOL: literal.value };
        case 'null':
          return { NULL: true };
        case 'missing':
          return MISSING;
      }
      break;
    }
    case 'parameter':
      return parameters[expression.index]!;
    case 'tuple':
      return tupleValue(expression, parameters, (name) => `${path}.${name}`);
    case 'list': {
      const list: AttributeValue[] = [];
      expression.elements.forEach((element, index) => {
        const value = literalValue(element, parameters, `${path}[${index}]`);
        if (value !== MISSING) list.push(value);
      });
      return { L: list };
    }
    case 'bag':
      return bagValue(expression.elements, parameters, path);
  }
  throw positioned(PartiqlMessages.unsupportedDataType(nameOf(expression)), positionOf(expression));
}

/**
 * An INSERT's item: each attribute's value is its own root, so a number deep inside `m` is
 * reported `under root.x` (docs/partiql.md §2.3).
 */
export function itemValue(expression: Expr, parameters: readonly AttributeValue[]): PartiqlValue {
  if (expression.type !== 'tuple') return literalValue(expression, parameters);
  return tupleValue(expression, parameters, () => 'root');
}

/**
 * A tuple as a map with its names inserted in sorted order and its sets sorted: the canonical
 * form items are stored in (`core/store/itemCodec.ts`), so an INSERT's item is encoded as it is.
 */
function tupleValue(
  expression: Expr & { type: 'tuple' },
  parameters: readonly AttributeValue[],
  pathOf: (name: string) => string,
): AttributeValue {
  const fields: [string, PartiqlValue][] = [];
  let sorted = true;
  for (const field of expression.fields) {
    const name = tupleKey(field.key, parameters);
    for (const [other] of fields) {
      if (other === name) throw new ValidationException(PartiqlMessages.duplicateTupleKey(name));
    }
    if (fields.length > 0 && fields[fields.length - 1]![0] > name) sorted = false;
    fields.push([name, literalValue(field.value, parameters, pathOf(name))]);
  }
  if (!sorted) fields.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const map = newAttributeMap();
  for (const [name, value] of fields) if (value !== MISSING) map[name] = value;
  return { M: map };
}

/** Whether an expression is a value (literal, parameter or constructor), not a path or a call. */
export function isValueExpression(expression: Expr): boolean {
  switch (expression.type) {
    case 'literal':
    case 'parameter':
    case 'tuple':
    case 'list':
    case 'bag':
      return true;
    default:
      return false;
  }
}

function numberValue(text: string, path: string): AttributeValue {
  const result = normaliseNumber(text);
  if (!result.ok) throw new ValidationException(`${result.message} under ${path}`);
  return { N: result.value };
}

function tupleKey(key: Expr, parameters: readonly AttributeValue[]): string {
  const value = isValueExpression(key) ? literalValue(key, parameters) : undefined;
  if (value === undefined || value === MISSING || typeOf(value) !== 'S')
    throw positioned(PartiqlMessages.unsupportedDataType(nameOf(key)), positionOf(key));
  return (value as { S: string }).S;
}

const SET_OF: Readonly<Record<string, 'SS' | 'NS' | 'BS' | undefined>> = { S: 'SS', N: 'NS', B: 'BS' };

/** `<<'a', 'b'>>` → SS: no empty bags, no duplicates, one scalar type (docs/partiql.md §2.3). */
function bagValue(
  elements: readonly Expr[],
  parameters: readonly AttributeValue[],
  path: string,
): AttributeValue {
  if (elements.length === 0) throw new ValidationException(PartiqlMessages.emptyBag);
  const members: string[] = [];
  let setType: 'SS' | 'NS' | 'BS' | undefined;
  elements.forEach((element, index) => {
    const value = literalValue(element, parameters, `${path}[${index}]`);
    const type = value === MISSING ? undefined : SET_OF[typeOf(value)];
    if (type === undefined || (setType !== undefined && type !== setType))
      throw positioned(PartiqlMessages.unsupportedDataType(nameOf(element)), positionOf(element));
    setType = type;
    members.push((value as Record<string, string>)[type === 'SS' ? 'S' : type === 'NS' ? 'N' : 'B']!);
  });
  const distinct =
    setType === 'NS'
      ? members.every((member, i) => members.findIndex((other) => compareNumbers(other, member) === 0) === i)
      : new Set(members).size === members.length;
  if (!distinct) throw new ValidationException(PartiqlMessages.duplicates(members.join(', ')));
  // Sorted, as stored sets are (`core/store/itemCodec.ts`).
  return { [setType!]: [...members].sort() } as AttributeValue;
}

/** How an expression is named in "Unsupported data type" messages. */
export function nameOf(expression: Expr): string {
  switch (expression.type) {
    case 'call':
      return expression.name;
    case 'path':
      return expression.name;
    case 'literal':
      return expression.value.kind;
    default:
      return expression.type;
  }
}

export function positionOf(expression: Expr): { line: number; column: number; length: number } {
  if ('position' in expression) return expression.position;
  if ('left' in expression) return positionOf(expression.left);
  return positionOf(expression.operand);
}
