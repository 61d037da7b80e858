import { ValidationException } from '../../errors/index.js';
import type { KeyConditionPart } from '../../expressions/index.js';
import { type CompositeKey, joinKeyValues } from '../../indexes/compositeKey.js';
import { type AttributeMap, getAttribute } from '../../model/attributeValue.js';
import { encodeKeyValue } from '../../model/keyCodec.js';
import type { KeyDefinition } from '../../store/table.js';
import { KeyMessages } from '../../validations/keys.js';
import { type KeyRange, satisfiesRange, scalarOf, setSortBounds, typeMismatch } from './keyConditions.js';

/**
 * A Query's key condition on a multi-attribute GSI key (docs/multi-attribute-keys.md): `=` on
 * every HASH attribute; on the RANGE attributes, conditions from left to right without a gap, all
 * `=` but the last one given, which may also be `<`, `<=`, `>`, `>=`, BETWEEN or begins_with. The
 * clauses may come in any order.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.DesignPattern.MultiAttributeKeys.html
 */
export const CompositeKeyMessages = {
  /**
   * A RANGE attribute before one that has a condition lacks an equality (skipped, or a range
   * condition). Verified against real AWS, October 2026, by a public DynamoDB conformance suite
   * (its multi-attribute GSI Query test: `h = :h AND a = :a AND c = :c`, `… b > :b AND c = :c`,
   * `h = :h AND b = :b`).
   */
  equalityNeeded: (attribute: string, later: string) =>
    `RANGE key attributes ${attribute} must have equality conditions specified in the query because a condition is present on key attribute ${later}`,
} as const;

/** The plan of a composite key condition: the key range, and each RANGE condition given. */
export interface CompositeKeyRange extends KeyRange {
  readonly sortConditions: readonly { definition: KeyDefinition; part: KeyConditionPart }[];
}

const T = '\u0000\u0000';
/** Just above every joined value that extends `prefix ‖ part ‖ T` (a NUL inside a part is NUL 0x01). */
const AFTER_PART = '\u0000\u0001';

function escapePart(encoded: string): string {
  return encoded.includes('\u0000') ? encoded.replaceAll('\u0000', '\u0000\u0001') : encoded;
}

/** The smallest string above every string that starts with `prefix` (one ending in NUL NUL). */
function afterPrefix(prefix: string): string {
  return `${prefix.slice(0, -1)}\u0001`;
}

/**
 * Plans a key condition on a multi-attribute GSI key, checking in the order of a classic key's
 * walk (`planKeyRange`): each HASH attribute (the start key's piece, a missing condition, a
 * non-indexable operator, the value's type, an operator other than `=`, an empty value), then a
 * condition on an attribute that is not part of the key (`Query condition missed key schema
 * element: <first RANGE attribute without a condition>`, else `Query key condition not
 * supported`, as moto 5.2 reads a classic key's rule), then the RANGE attributes: the start key's
 * pieces, then, for each RANGE attribute with a condition, an equality on every one before it.
 */
export function planCompositeKeyRange(
  parts: readonly KeyConditionPart[],
  composite: CompositeKey,
  beforeAttribute?: (definition: KeyDefinition, isHash: boolean) => void,
): CompositeKeyRange {
  const partOf = (definition: KeyDefinition) => parts.find((part) => part.attributeName === definition.name);
  const checkValues = (definition: KeyDefinition, part: KeyConditionPart) => {
    if (part.notIndexable)
      throw new ValidationException('Attempted conditional constraint is not an indexable operation');
    const scalars = part.values.map((value) => scalarOf(value, definition.type));
    if (scalars.some((scalar) => scalar === undefined)) throw typeMismatch();
    return scalars as string[];
  };
  const hashValues: string[] = [];
  for (const definition of composite.hash) {
    beforeAttribute?.(definition, true);
    const part = partOf(definition);
    if (part === undefined)
      throw new ValidationException(`Query condition missed key schema element: ${definition.name}`);
    const scalars = checkValues(definition, part);
    if (part.operator !== '=') throw new ValidationException('Query key condition not supported');
    if (definition.type !== 'N' && scalars[0] === '')
      throw new ValidationException(KeyMessages.emptyInItem(definition.name, definition.type));
    hashValues.push(scalars[0]!);
  }
  const known = new Set([...composite.hash, ...composite.range].map((definition) => definition.name));
  if (parts.some((part) => !known.has(part.attributeName))) {
    const missing = composite.range.find((definition) => partOf(definition) === undefined);
    if (missing !== undefined)
      throw new ValidationException(`Query condition missed key schema element: ${missing.name}`);
    throw new ValidationException('Query key condition not supported');
  }
  for (const definition of composite.range) beforeAttribute?.(definition, false);
  composite.range.forEach((later, laterIndex) => {
    if (partOf(later) === undefined) return;
    for (const earlier of composite.range.slice(0, laterIndex)) {
      if (partOf(earlier)?.operator !== '=')
        throw new ValidationException(CompositeKeyMessages.equalityNeeded(earlier.name, later.name));
    }
  });
  const sortConditions: { definition: KeyDefinition; part: KeyConditionPart }[] = [];
  for (const definition of composite.range) {
    const part = partOf(definition);
    if (part === undefined) break;
    const scalars = checkValues(definition, part);
    if (definition.type !== 'N' && scalars.includes(''))
      throw new ValidationException(KeyMessages.emptyInItem(definition.name, definition.type));
    sortConditions.push({ definition, part });
  }
  const range: CompositeKeyRange = {
    hashKey: joinKeyValues(composite.hash, hashValues),
    range: undefined,
    lower: undefined,
    upper: undefined,
    prefix: undefined,
    sortConditions,
  };
  const last = sortConditions.at(-1);
  if (last === undefined) return range;
  if (composite.range.length === 1) {
    // One RANGE attribute is encoded as a classic sort key (compositeKey.ts).
    setSortBounds(range, last.part, last.definition.type);
    return range;
  }
  setJoinedBounds(range, sortConditions);
  return range;
}

/**
 * Bounds on the joined sort value (`compositeKey.ts`): with P the joined equalities before the
 * last condition and e the last value's escaped encoding, `=` is the prefix P‖e‖T; `<` lies in
 * [P, P‖e‖T); `<=` below P‖e‖NUL 0x01 (every value extending P‖e‖T); `>` from there up to the end
 * of P; `>=` from P‖e‖T; BETWEEN lo AND hi from P‖lo‖T below P‖hi‖NUL 0x01; begins_with the
 * prefix P‖e (S and B encodings keep prefixes).
 */
function setJoinedBounds(
  range: CompositeKeyRange,
  sortConditions: readonly { definition: KeyDefinition; part: KeyConditionPart }[],
): void {
  let prefix = '';
  const encode = (definition: KeyDefinition, index: number, part: KeyConditionPart) =>
    escapePart(encodeKeyValue(definition.type, scalarOf(part.values[index]!, definition.type)!));
  for (let i = 0; i < sortConditions.length - 1; i++) {
    const { definition, part } = sortConditions[i]!;
    prefix += encode(definition, 0, part) + T;
  }
  const { definition, part } = sortConditions.at(-1)!;
  const first = encode(definition, 0, part);
  const end = prefix === '' ? undefined : { key: afterPrefix(prefix), inclusive: false };
  const from = prefix === '' ? undefined : { key: prefix, inclusive: true };
  switch (part.operator) {
    case '=':
      range.prefix = prefix + first + T;
      break;
    case '<':
      range.lower = from;
      range.upper = { key: prefix + first + T, inclusive: false };
      break;
    case '<=':
      range.lower = from;
      range.upper = { key: prefix + first + AFTER_PART, inclusive: false };
      break;
    case '>':
      range.lower = { key: prefix + first + AFTER_PART, inclusive: true };
      range.upper = end;
      break;
    case '>=':
      range.lower = { key: prefix + first + T, inclusive: true };
      range.upper = end;
      break;
    case 'BETWEEN':
      range.lower = { key: prefix + first + T, inclusive: true };
      range.upper = { key: prefix + encode(definition, 1, part) + AFTER_PART, inclusive: false };
      break;
    case 'begins_with':
      if (definition.type === 'N') {
        throw new ValidationException(
          'Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N',
        );
      }
      range.prefix = prefix + first;
      break;
  }
}

/**
 * Whether a start key lies in the queried partition and satisfies every RANGE condition (the
 * classic rules of `startPosition`, docs/dynamodb.md §6.2.5, attribute by attribute).
 */
export function checkCompositeStartKey(
  startKey: AttributeMap,
  composite: CompositeKey,
  range: CompositeKeyRange,
): void {
  const hashValues = composite.hash.map(
    (definition) => (getAttribute(startKey, definition.name) as Record<string, string>)[definition.type]!,
  );
  const samePartition = joinKeyValues(composite.hash, hashValues) === range.hashKey;
  if (range.sortConditions.length === 0) {
    if (!samePartition) {
      throw new ValidationException(
        'The provided starting key is outside query boundaries based on provided conditions',
      );
    }
    return;
  }
  for (const { definition, part } of range.sortConditions) {
    if (!satisfiesRange(part, getAttribute(startKey, definition.name)!))
      throw new ValidationException('The provided starting key does not match the range key predicate');
  }
  if (!samePartition)
    throw new ValidationException('The query can return at most one row and cannot be restarted');
}
