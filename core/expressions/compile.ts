import type { Item } from '../model/attributeValue.js';
import type { ConditionNode, UpdateActionNode } from './ast.js';
import { parseCached } from './cache.js';
import { staticConditionError } from './conditionCheck.js';
import { resolveCondition } from './conditionResolve.js';
import { expressionError } from './errors.js';
import { evaluateCondition } from './evaluate.js';
import type {
  ConditionExpression,
  DocumentPath,
  KeyConditionPart,
  KeyConditionPlan,
  UpdatePlan,
} from './index.js';
import { keyConditionParts } from './keyCondition.js';
import { parseConditionText } from './parseCondition.js';
import { UpdateParser } from './parseUpdate.js';
import type { Condition } from './resolved.js';
import type { Resolver } from './resolver.js';
import { expressionUpdatePlan } from './update/apply.js';
import { actionsOf, staticUpdateError } from './update/check.js';
import { resolveUpdate } from './update/resolve.js';

type ConditionKind = 'Condition' | 'Filter' | 'KeyCondition';

/** A resolved condition, ready to evaluate against items. */
export class CompiledCondition implements ConditionExpression {
  constructor(
    readonly condition: Condition,
    readonly paths: readonly DocumentPath[],
  ) {}

  evaluate(item: Item | undefined): boolean {
    return evaluateCondition(this.condition, item);
  }
}

function buildCondition(kind: ConditionKind): (text: string) => ConditionNode {
  return (text) => {
    const { ast, redundant } = parseConditionText(text, kind);
    const error = staticConditionError(ast, redundant);
    if (error !== undefined) throw expressionError(kind, error);
    return ast;
  };
}

const conditionBuilders: Record<ConditionKind, (text: string) => ConditionNode> = {
  Condition: buildCondition('Condition'),
  Filter: buildCondition('Filter'),
  KeyCondition: buildCondition('KeyCondition'),
};

/**
 * ConditionExpression / FilterExpression / KeyConditionExpression grammar and checks
 * (docs/dynamodb.md §5.2, §8.6).
 */
export function compileCondition(text: string, kind: ConditionKind, resolver: Resolver): CompiledCondition {
  const ast = parseCached(kind, text, conditionBuilders[kind]);
  const paths: DocumentPath[] = [];
  const condition = resolveCondition(ast, resolver, kind, paths);
  return new CompiledCondition(condition, paths);
}

/**
 * A KeyConditionExpression: grammar checks now, the stateless key rules (docs/dynamodb.md §6.1.2) on demand.
 */
export function compileKeyCondition(text: string, resolver: Resolver): KeyConditionPlan {
  const compiled = compileCondition(text, 'KeyCondition', resolver);
  let parts: KeyConditionPart[] | undefined;
  return {
    paths: compiled.paths,
    condition: compiled,
    parts: () => {
      parts ??= keyConditionParts(compiled.condition);
      return parts;
    },
  };
}

function buildUpdate(text: string): readonly UpdateActionNode[] {
  const parser = new UpdateParser(text);
  const ast = parser.parse();
  const error = staticUpdateError(ast, parser.redundantParentheses);
  if (error !== undefined) throw expressionError('Update', error);
  return actionsOf(ast);
}

/** UpdateExpression grammar, checks (docs/dynamodb.md §5.3.7) and plan. */
export function compileUpdate(text: string, resolver: Resolver): UpdatePlan {
  const actions = parseCached('Update', text, buildUpdate);
  return expressionUpdatePlan(resolveUpdate(actions, resolver));
}
