import { ValidationException } from '../errors/index.js';
import { ExpressionMessages } from '../expressions/errors.js';
import type { UpdatePlan } from '../expressions/index.js';
import { findPathClash, samePath } from '../expressions/paths.js';
import { expressionUpdatePlan } from '../expressions/update/apply.js';
import type { UpdateAction as ResolvedAction, UpdateValue } from '../expressions/update/resolve.js';
import { type AttributeValue, isSetType, typeOf } from '../model/attributeValue.js';
import type { CallExpr, Expr, UpdateAction } from './ast.js';
import { documentPath } from './conditions.js';
import { PartiqlMessages, positioned } from './errors.js';
import { isValueExpression, literalValue, MISSING, positionOf } from './values.js';

/**
 * SET and REMOVE clauses as the engine's resolved update actions (`core/expressions/update`), so a
 * PartiQL UPDATE applies, sizes and fails exactly like an UpdateExpression (docs/partiql.md §3.4):
 * `a = a + 1` and `a - 1`, `list_append`, `if_not_exists`, and `set_add` / `set_delete`, which are
 * ADD and DELETE of set members.
 */
export function updatePlan(
  actions: readonly UpdateAction[],
  parameters: readonly AttributeValue[],
): UpdatePlan {
  const resolved = actions.map((action): ResolvedAction => {
    const path = documentPath(action.path);
    if (action.kind === 'remove') return { kind: 'REMOVE', path };
    const value = action.value;
    if (value.type === 'call' && (value.name === 'set_add' || value.name === 'set_delete'))
      return setFunction(value, path, parameters);
    return { kind: 'SET', path, value: updateValue(value, parameters) };
  });
  const clash = findPathClash(resolved.map((action) => action.path));
  if (clash !== undefined) throw new ValidationException(clash);
  return expressionUpdatePlan(resolved);
}

function updateValue(expression: Expr, parameters: readonly AttributeValue[]): UpdateValue {
  if (expression.type === 'path') return { kind: 'path', path: documentPath(expression) };
  if (isValueExpression(expression)) {
    const value = literalValue(expression, parameters);
    if (value === MISSING) throw new ValidationException(PartiqlMessages.unsupportedExpression);
    return { kind: 'value', value };
  }
  if (expression.type === 'arithmetic') {
    if (expression.operator !== '+' && expression.operator !== '-')
      throw new ValidationException(PartiqlMessages.unsupportedExpression);
    const left = updateValue(expression.left, parameters);
    const right = updateValue(expression.right, parameters);
    for (const side of [left, right]) {
      if (side.kind === 'value' && typeOf(side.value) !== 'N')
        throw new ValidationException(
          ExpressionMessages.operandType(expression.operator, typeOf(side.value)),
        );
    }
    return { kind: 'arithmetic', operator: expression.operator, left, right };
  }
  if (expression.type === 'call') {
    if (expression.name === 'list_append') {
      const args = arguments2(expression, parameters);
      for (const side of args) {
        if (side.kind === 'value' && typeOf(side.value) !== 'L')
          throw new ValidationException(ExpressionMessages.operandType(expression.name, typeOf(side.value)));
      }
      return { kind: 'listAppend', left: args[0], right: args[1] };
    }
    if (expression.name === 'if_not_exists') {
      const args = arguments2(expression, parameters);
      if (args[0].kind !== 'path')
        throw new ValidationException(ExpressionMessages.requiresPath(expression.name));
      return { kind: 'ifNotExists', path: args[0].path, fallback: args[1] };
    }
    throw positioned(PartiqlMessages.unrecognizedFunction(expression.name), expression.position);
  }
  throw new ValidationException(PartiqlMessages.unsupportedExpression);
}

function arguments2(call: CallExpr, parameters: readonly AttributeValue[]): [UpdateValue, UpdateValue] {
  if (call.args.length !== 2)
    throw new ValidationException(ExpressionMessages.operandCount(call.name, call.args.length));
  return [updateValue(call.args[0]!, parameters), updateValue(call.args[1]!, parameters)];
}

/**
 * `a = set_add(a, <<…>>)` adds members to the set `a` holds, `set_delete` removes them; the first
 * argument must be the assigned path and the second a set (docs/partiql.md §3.4, messages with the
 * token's place as the service words them).
 */
function setFunction(
  call: CallExpr,
  path: ResolvedAction['path'],
  parameters: readonly AttributeValue[],
): ResolvedAction {
  const name = call.name.toUpperCase();
  if (call.args.length !== 2) throw positioned(PartiqlMessages.setFunctionArity(name), call.position);
  const [target, operand] = call.args as [Expr, Expr];
  if (target.type !== 'path' || !samePath(documentPath(target), path))
    throw positioned(PartiqlMessages.setFunctionFirst(name), call.position);
  const value = isValueExpression(operand) ? literalValue(operand, parameters) : undefined;
  if (value === undefined || value === MISSING || !isSetType(typeOf(value)))
    throw positioned(PartiqlMessages.setFunctionSecond(name), positionOf(target));
  return { kind: call.name === 'set_add' ? 'ADD' : 'DELETE', path, value };
}
