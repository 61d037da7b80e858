import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  CallNode,
  CompareOperator,
  ConditionNode,
  OperandNode,
  PathElementNode,
  PathNode,
  SetValueNode,
  UpdateNode,
} from '../../../core/expressions/ast.js';
import { parseConditionText } from '../../../core/expressions/parseCondition.js';
import { UpdateParser } from '../../../core/expressions/parseUpdate.js';
import { printCondition, printUpdate } from '../../../core/expressions/printer.js';
import type { AttributeValue, Item } from '../../../core/model/attributeValue.js';
import { normaliseNumber } from '../../../core/model/number.js';
import { scope } from './helpers.js';

/** Removes the `parens` bookkeeping so that trees compare by structure. */
const structure = (node: unknown) =>
  JSON.parse(JSON.stringify(node, (key, value) => (key === 'parens' ? undefined : value)));

const name = fc.constantFrom('a', 'b', 'price', 'Title1', 'x_y', 'q9');
const ref = fc.constantFrom('#a', '#n1', '#_', '#1x');
const pathElement: fc.Arbitrary<PathElementNode> = fc.oneof(
  name.map((text): PathElementNode => ({ type: 'name', name: text })),
  ref.map((text): PathElementNode => ({ type: 'ref', ref: text })),
  fc.nat(40).map((index): PathElementNode => ({ type: 'index', index })),
);
const path: fc.Arbitrary<PathNode> = fc
  .tuple(
    fc.oneof(
      name.map((text): PathElementNode => ({ type: 'name', name: text })),
      ref.map((text): PathElementNode => ({ type: 'ref', ref: text })),
    ),
    fc.array(pathElement, { maxLength: 3 }),
  )
  .map(([first, rest]) => ({ type: 'path', elements: [first, ...rest], parens: 0 }));
const value: fc.Arbitrary<OperandNode> = fc
  .constantFrom(':v', ':w1', ':_x')
  .map((text) => ({ type: 'value', ref: text, parens: 0 }));

const { operand } = fc.letrec<{ operand: OperandNode; call: CallNode }>((tie) => ({
  operand: fc.oneof({ depthSize: 'small', withCrossShrink: true }, path, value, tie('call')),
  call: fc
    .tuple(
      fc.constantFrom('size', 'contains', 'attribute_exists', 'f'),
      fc.array(tie('operand'), { minLength: 1, maxLength: 3 }),
    )
    .map(([callName, args]): CallNode => ({ type: 'call', name: callName, args, parens: 0 })),
}));

const comparator = fc.constantFrom<CompareOperator>('=', '<>', '<', '<=', '>', '>=');
const { condition } = fc.letrec<{ condition: ConditionNode }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .tuple(operand, comparator, operand)
      .map(
        ([left, operator, right]): ConditionNode => ({ type: 'compare', operator, left, right, parens: 0 }),
      ),
    fc.tuple(operand, operand, operand).map(
      ([subject, lower, upper]): ConditionNode => ({
        type: 'between',
        operand: subject,
        lower,
        upper,
        parens: 0,
      }),
    ),
    fc
      .tuple(operand, fc.array(operand, { minLength: 1, maxLength: 3 }))
      .map(([subject, list]): ConditionNode => ({ type: 'in', operand: subject, list, parens: 0 })),
    fc
      .tuple(
        fc.constantFrom('attribute_exists', 'begins_with', 'g'),
        fc.array(operand, { minLength: 1, maxLength: 2 }),
      )
      .map(
        ([callName, args]): ConditionNode => ({
          type: 'function',
          call: { type: 'call', name: callName, args, parens: 0 },
          parens: 0,
        }),
      ),
    fc
      .tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), tie('condition'), tie('condition'))
      .map(([type, left, right]): ConditionNode => ({ type, left, right, parens: 0 })),
    tie('condition').map((inner): ConditionNode => ({ type: 'not', operand: inner, parens: 0 })),
  ),
}));

describe('parse → print → parse', () => {
  it('gives back the same condition tree', () => {
    fc.assert(
      fc.property(condition, (tree) => {
        const text = printCondition(tree);
        const { ast, redundant } = parseConditionText(text, 'Condition');
        expect(redundant).toBe(false);
        expect(structure(ast)).toEqual(structure(tree));
      }),
      { numRuns: 300 },
    );
  });

  it('gives back the same update tree', () => {
    const setValue: fc.Arbitrary<SetValueNode> = fc.oneof(
      operand,
      fc.tuple(operand, fc.constantFrom<'+' | '-'>('+', '-'), operand).map(
        ([left, operator, right]): SetValueNode => ({
          type: 'arithmetic',
          operator,
          left,
          right,
          parens: 0,
        }),
      ),
    );
    const clause = fc.oneof(
      fc.array(fc.tuple(path, setValue), { minLength: 1, maxLength: 3 }).map((actions) => ({
        clause: 'SET' as const,
        actions: actions.map(([target, assigned]) => ({
          type: 'SET' as const,
          path: target,
          value: assigned,
        })),
      })),
      fc.array(path, { minLength: 1, maxLength: 3 }).map((paths) => ({
        clause: 'REMOVE' as const,
        actions: paths.map((target) => ({ type: 'REMOVE' as const, path: target })),
      })),
      fc
        .tuple(
          fc.constantFrom<'ADD' | 'DELETE'>('ADD', 'DELETE'),
          fc.array(path, { minLength: 1, maxLength: 3 }),
        )
        .map(([type, paths]) => ({
          clause: type,
          actions: paths.map((target) => ({
            type,
            path: target,
            value: { type: 'value' as const, ref: ':v', parens: 0 },
          })),
        })),
    );
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 4 }), (clauses) => {
        const tree: UpdateNode = { type: 'update', clauses };
        const parsed = new UpdateParser(printUpdate(tree)).parse();
        expect(structure(parsed)).toEqual(structure(tree));
      }),
      { numRuns: 200 },
    );
  });
});

describe('evaluation consistency', () => {
  const scalar: fc.Arbitrary<AttributeValue> = fc.oneof(
    fc.integer({ min: -50, max: 50 }).map((n) => ({ N: String(n) })),
    fc.constantFrom('', 'a', 'ab', 'b', 'é', '😀').map((s) => ({ S: s })),
    fc.constantFrom({ BOOL: true }, { NULL: true } as AttributeValue, { L: [] }),
  );
  const item = fc.dictionary(fc.constantFrom('a', 'b', 'c'), scalar) as fc.Arbitrary<Item>;
  const operandText = fc.constantFrom('a', 'b', 'c', ':x', ':y');
  const atom = fc.oneof(
    fc
      .tuple(operandText, fc.constantFrom('=', '<>', '<', '<=', '>', '>='), operandText)
      .map(([l, o, r]) => `${l} ${o} ${r}`),
    fc.tuple(operandText, operandText, operandText).map(([x, lo, hi]) => `${x} BETWEEN ${lo} AND ${hi}`),
    fc.constantFrom(
      'attribute_exists(a)',
      'attribute_not_exists(b)',
      'begins_with(a, :x)',
      'contains(c, :y)',
    ),
  );
  const valuesFor = (x: AttributeValue, y: AttributeValue) => ({ ':x': x, ':y': y });

  const evaluate = (text: string, target: Item, values: Record<string, AttributeValue>) => {
    const used = Object.fromEntries(Object.entries(values).filter(([key]) => text.includes(key)));
    try {
      return scope(undefined, Object.keys(used).length > 0 ? used : undefined)
        .parseCondition(text, 'Condition')
        .evaluate(target);
    } catch {
      return undefined; // statically invalid (e.g. a = a, a BETWEEN with bad literals)
    }
  };

  it('obeys NOT, AND, OR and the BETWEEN definition', () => {
    fc.assert(
      fc.property(item, scalar, scalar, atom, atom, (target, x, y, first, second) => {
        const values = valuesFor(x, y);
        const one = evaluate(first, target, values);
        const two = evaluate(second, target, values);
        if (one === undefined || two === undefined) return;
        expect(evaluate(`NOT (${first})`, target, values)).toBe(!one);
        const and = evaluate(`(${first}) AND (${second})`, target, values);
        if (and !== undefined) expect(and).toBe(one && two);
        const or = evaluate(`(${first}) OR (${second})`, target, values);
        if (or !== undefined) expect(or).toBe(one || two);
      }),
      { numRuns: 300 },
    );
  });

  it('makes <> the negation of = exactly when both operands exist', () => {
    fc.assert(
      fc.property(item, scalar, fc.constantFrom('a', 'b', 'q'), (target, x, attribute) => {
        const equal = evaluate(`${attribute} = :x`, target, { ':x': x });
        const different = evaluate(`${attribute} <> :x`, target, { ':x': x });
        if (attribute in target) expect(different).toBe(!equal);
        else expect([equal, different]).toEqual([false, true]);
      }),
    );
  });
});

describe('update arithmetic', () => {
  const decimal = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.nat(999_999))
    .map(([negative, whole, fraction]) =>
      normaliseNumber(`${negative ? '-' : ''}${whole}.${String(fraction).padStart(6, '0')}`),
    )
    .filter((result) => result.ok)
    .map((result) => (result as { value: string }).value);

  it('adds then subtracts back to the original value exactly', () => {
    fc.assert(
      fc.property(decimal, decimal, (x, y) => {
        const values = { ':x': { N: x }, ':y': { N: y } };
        const added = scope(undefined, values).parseUpdate('SET a = :x + :y').apply(undefined).item;
        const back = scope(undefined, { ':y': { N: y } })
          .parseUpdate('SET a = a - :y')
          .apply(added).item;
        expect(back.a).toEqual({ N: x });
      }),
    );
  });
});
