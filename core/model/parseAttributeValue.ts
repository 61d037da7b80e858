import {
  type AttributeMap,
  type AttributeValue,
  newFastAttributeMap,
  setAttribute,
} from './attributeValue.js';
import {
  expectBlob,
  expectBoolean,
  expectList,
  expectMap,
  expectString,
  expectStructure,
  type Position,
} from './jsonTypes.js';
import { normaliseNumber } from './number.js';
import { utf8Length } from './utf8.js';

/**
 * Turns wire JSON into a validated, normalised AttributeValue.
 *
 * Wrong JSON types throw `SerializationException` at once (the service type-checks the whole
 * request before validating anything). Semantic problems (empty value, two types, bad number,
 * empty or duplicate set, nesting) are recorded in `problems` and the walk goes on, so that a
 * later type error still wins (docs/dynamodb.md §8.1); the caller reports `problems.first` at the
 * right step. The one exception is nesting: the walk never descends below level 32, so the depth
 * of a request costs no stack (a type error deeper than that goes unreported: the value is
 * invalid anyway).
 */
export interface AttributeProblems {
  first: string | undefined;
  /** The top-level map key whose value held the first problem (for ExpressionAttributeValues). */
  firstKey?: string;
}

export const AttributeMessages = {
  empty: 'Supplied AttributeValue is empty, must contain exactly one of the supported datatypes',
  severalTypes:
    'Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes',
  nullNotTrue:
    'One or more parameter values were invalid: Null attribute value types must have the value of true',
  // The double spaces are verbatim (docs/dynamodb.md §2.1.3).
  emptyStringSet: 'One or more parameter values were invalid: An string set  may not be empty',
  emptyNumberSet: 'One or more parameter values were invalid: An number set  may not be empty',
  emptyBinarySet: 'One or more parameter values were invalid: Binary sets should not be empty',
  // The members print quoted, `["a", "a"]`, in the regions on the newer framework (PutItem,
  // June 2026; `[a, a]` before), as eddy's other texts of those regions (docs/dynamodb.md §2.1.4).
  duplicateStrings: (members: string[]) =>
    `One or more parameter values were invalid: Input collection [${members.map((member) => JSON.stringify(member)).join(', ')}] contains duplicates.`,
  duplicateBinaries: (members: string[]) =>
    `One or more parameter values were invalid: Input collection [${members.join(', ')}]of type BS contains duplicates.`,
  duplicateNumbers: 'Input collection contains duplicates',
  nesting:
    'Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit',
  // Attribute names have 1 to 65,535 UTF-8 bytes (docs/dynamodb.md §2.5.4). The texts are the
  // service's validation messages as AWS's DynamoDB Local ships them (its ErrorFactory,
  // EMPTY_ATTRIBUTE_NAME and ATTRIBUTE_NAME_TOO_LARGE); ScyllaDB's test_limits.py, run against
  // DynamoDB, expects the long-name message to name the limit (`6553[56]`).
  emptyName: 'Empty attribute name',
  nameTooLong: 'Attribute name is too large, must be less than 65536 bytes',
} as const;

/** Attribute names have at most 65,535 UTF-8 bytes (docs/dynamodb.md §2.5.4). */
export const MAX_ATTRIBUTE_NAME_BYTES = 65_535;
/**
 * A UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair, two units, is 4): a name of at
 * most this many units fits the limit without being measured.
 */
const SURELY_SHORT_NAME = Math.floor(MAX_ATTRIBUTE_NAME_BYTES / 3);

/**
 * The problem with an attribute name (empty, or over 65,535 UTF-8 bytes), if any. Only a name of
 * more than 21,845 characters is measured, so the usual name costs two comparisons.
 */
export function attributeNameProblem(name: string): string | undefined {
  if (name.length === 0) return AttributeMessages.emptyName;
  if (name.length > SURELY_SHORT_NAME && utf8Length(name) > MAX_ATTRIBUTE_NAME_BYTES)
    return AttributeMessages.nameTooLong;
  return undefined;
}

/** A top-level attribute value is level 1; values may reach level 32 (docs/dynamodb.md §2.1.5). */
export const MAX_NESTING_LEVEL = 32;

export const ATTRIBUTE_VALUE_CLASS = 'com.amazonaws.dynamodb.v20120810.AttributeValue';

function record(problems: AttributeProblems, message: string) {
  if (problems.first === undefined) problems.first = message;
}

/**
 * Parses one AttributeValue. Returns the normalised value, or `undefined` when it is invalid (the
 * reason is then in `problems`).
 */
export function parseAttributeValue(
  raw: unknown,
  position: Position,
  problems: AttributeProblems,
  level = 1,
): AttributeValue | undefined {
  const struct = expectStructure(raw, position, ATTRIBUTE_VALUE_CLASS);
  let result: AttributeValue | undefined;
  let typeCount = 0;
  let memberCount = 0;
  let valid = true;
  // A scalar that is already canonical (one member, normalised) is kept as is: no allocation.
  let canonical = true;
  for (const type in struct) {
    memberCount++;
    const value = struct[type];
    if (value === null || value === undefined) continue;
    switch (type) {
      case 'S':
        expectString(value);
        break;
      case 'N': {
        const text = expectString(value);
        const number = normaliseNumber(text);
        if (number.ok) {
          if (number.value !== text) canonical = false;
          result = { N: number.value };
        } else {
          record(problems, number.message);
          valid = false;
        }
        break;
      }
      case 'B': {
        const base64 = expectBlob(value);
        if (base64 !== value) canonical = false;
        result = { B: base64 };
        break;
      }
      case 'BOOL': {
        const flag = expectBoolean(value);
        if (flag !== value) result = { BOOL: flag }; // read from a string (docs/dynamodb.md §1.2.7)
        break;
      }
      case 'NULL':
        // Read as a boolean (`"no"` is false, docs/dynamodb.md §1.2.7), then only true is taken:
        // every region refuses false again since July 2026 (docs/dynamodb.md §2.1.1).
        if (expectBoolean(value)) result = { NULL: true };
        else {
          record(problems, AttributeMessages.nullNotTrue);
          valid = false;
        }
        break;
      case 'SS': {
        const members = expectList(value, 'field').map(expectString);
        const set = setMembers(problems, members, AttributeMessages.emptyStringSet, () =>
          AttributeMessages.duplicateStrings(members),
        );
        if (set === undefined) valid = false;
        else result = { SS: set };
        break;
      }
      case 'NS': {
        const texts = expectList(value, 'field').map(expectString);
        const members: string[] = [];
        let membersValid = true;
        for (const text of texts) {
          const number = normaliseNumber(text);
          if (number.ok) members.push(number.value);
          else if (membersValid) {
            record(problems, number.message);
            membersValid = false;
          }
        }
        // An empty list has no invalid member: it gets the empty-set message.
        const set = membersValid
          ? setMembers(
              problems,
              members,
              AttributeMessages.emptyNumberSet,
              () => AttributeMessages.duplicateNumbers,
            )
          : undefined;
        if (set === undefined) valid = false;
        else result = { NS: set };
        break;
      }
      case 'BS': {
        const members = expectList(value, 'field').map(expectBlob);
        const set = setMembers(problems, members, AttributeMessages.emptyBinarySet, () =>
          AttributeMessages.duplicateBinaries(members),
        );
        if (set === undefined) valid = false;
        else result = { BS: set };
        break;
      }
      case 'L': {
        const elements = expectList(value, 'field');
        const parsed: AttributeValue[] = [];
        if (level >= MAX_NESTING_LEVEL && elements.length > 0) {
          // Too deep already: say so and go no further, so nesting costs no stack (a body of
          // 1,762 nested levels overflowed it while the walk went on).
          record(problems, AttributeMessages.nesting);
          valid = false;
          break;
        }
        for (const element of elements) {
          const child = parseAttributeValue(element, 'element', problems, level + 1);
          if (child === undefined) valid = false;
          else parsed.push(child);
        }
        result = { L: parsed };
        break;
      }
      case 'M': {
        const entries = expectMap(value, 'field', ATTRIBUTE_VALUE_CLASS);
        const map = newFastAttributeMap();
        // Names in sorted order: stored items are canonical (core/store/itemCodec.ts).
        const names = sortedNames(entries);
        if (level >= MAX_NESTING_LEVEL && names.length > 0) {
          record(problems, AttributeMessages.nesting);
          valid = false;
          break;
        }
        for (const name of names) {
          const entry = entries[name];
          if (entry === null || entry === undefined) continue;
          const child = parseAttributeValue(entry, 'element', problems, level + 1);
          if (child === undefined) valid = false;
          else setAttribute(map, name, child);
        }
        result = { M: map };
        break;
      }
      default:
        // Unknown members are ignored, like any unknown JSON member (docs/dynamodb.md §2.1.1).
        canonical = false;
        continue;
    }
    typeCount++;
  }
  if (typeCount === 0) {
    record(problems, AttributeMessages.empty);
    return undefined;
  }
  if (!valid) return undefined;
  if (typeCount > 1) {
    record(problems, AttributeMessages.severalTypes);
    return undefined;
  }
  if (result === undefined) {
    // S and BOOL: reuse the input value when it is exactly `{S: "..."}` / `{BOOL: b}`.
    if (canonical && memberCount === 1) return struct as AttributeValue;
    const type = 'S' in struct && struct.S != null ? 'S' : 'BOOL';
    return (type === 'S' ? { S: struct.S } : { BOOL: struct.BOOL }) as AttributeValue;
  }
  if (canonical && memberCount === 1 && ('N' in result || 'B' in result)) return struct as AttributeValue;
  return result;
}

/**
 * Parses a map of attribute name → AttributeValue (an Item, a Key, ExpressionAttributeValues).
 * Returns a map holding the valid entries. With `names` (an item or a key, not
 * ExpressionAttributeValues, whose keys are placeholders) each name is checked too, after its
 * value, as the service converts an attribute (DynamoDB Local's InputConverter).
 */
export function parseAttributeMap(
  raw: unknown,
  position: Position,
  problems: AttributeProblems,
  names = false,
): AttributeMap {
  const entries = expectMap(raw, position, ATTRIBUTE_VALUE_CLASS);
  const map = newFastAttributeMap();
  // Names in sorted order: stored items are canonical (core/store/itemCodec.ts).
  for (const name of sortedNames(entries)) {
    const entry = entries[name];
    if (entry === null || entry === undefined) continue;
    const hadProblem = problems.first !== undefined;
    const value = parseAttributeValue(entry, 'element', problems);
    if (names) {
      const nameProblem = attributeNameProblem(name);
      if (nameProblem !== undefined) record(problems, nameProblem);
    }
    if (!hadProblem && problems.first !== undefined) problems.firstKey = name;
    if (value !== undefined) setAttribute(map, name, value);
  }
  return map;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `Object.keys(map).sort()`: the same names in the same (UTF-16 code unit) order. Small maps, the
 * usual item, are sorted by insertion as the names are read: measured 210 → 95 ns for 7 names.
 */
function sortedNames(map: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const name in map) {
    if (!hasOwn.call(map, name)) continue;
    let at = names.length;
    names.push(name);
    if (at > 16) continue;
    while (at > 0 && names[at - 1]! > name) {
      names[at] = names[at - 1]!;
      at--;
    }
    names[at] = name;
  }
  return names.length > 17 ? names.sort() : names;
}

/**
 * A set's members in order, or undefined after recording why the set is invalid: it is empty, or
 * holds a member twice (the duplicate message is built only then).
 */
function setMembers(
  problems: AttributeProblems,
  members: string[],
  emptyMessage: string,
  duplicateMessage: () => string,
): string[] | undefined {
  if (members.length === 0) {
    record(problems, emptyMessage);
    return undefined;
  }
  const sorted = sortedWithoutDuplicates(members);
  if (sorted === undefined) record(problems, duplicateMessage());
  return sorted;
}

/**
 * A sorted copy of a set's members, or undefined when two are equal (equal strings sort next to
 * each other): no Set per set value, which cost more than the sort for the usual few members.
 */
function sortedWithoutDuplicates(members: string[]): string[] | undefined {
  // Insertion sort with `<` (the default sort's order for strings) for the usual few members:
  // Array.prototype.sort cost ~200 ns even for two.
  const sorted = members.slice();
  if (sorted.length > 16) sorted.sort();
  else
    for (let i = 1; i < sorted.length; i++) {
      const member = sorted[i]!;
      let at = i;
      while (at > 0 && sorted[at - 1]! > member) {
        sorted[at] = sorted[at - 1]!;
        at--;
      }
      sorted[at] = member;
    }
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) return undefined;
  return sorted;
}
