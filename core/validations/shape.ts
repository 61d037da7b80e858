import { ValidationException } from '../errors/index.js';

/**
 * Request shapes: each operation declares its input members once, and one checker answers as the
 * service does, in its order (docs/dynamodb.md §8.1):
 *
 * 1. member types (`SerializationException`, texts recorded against AWS in dynalite's tests);
 * 2. the constraint list (`n validation error(s) detected: Value … at '<path>' failed to satisfy
 *    constraint: Member must …`, at most 10 entries, paths in lower camel case with 1-based
 *    list indexes);
 * 3. the operation's own semantic checks (its `validations/<operation>.ts`).
 *
 * Unknown members are dropped and `null` members count as absent (docs/dynamodb.md §1.1.5).
 */
export type Shape =
  | StringShape
  | BooleanShape
  | IntegerShape
  | BlobShape
  | ListShape
  | MapShape
  | StructureShape
  | AttributeValueShape
  | AttributeMapShape;

interface Constraints {
  /** `Member must not be null`. */
  required?: boolean;
  /**
   * The newer validation framework AWS is rolling out member by member (2026): its entries print
   * no value and name the member as declared, `Value at 'Limit' failed to satisfy constraint: …`
   * or `Value at 'RequestItems.<t>.member.Keys' …` (docs/dynamodb.md §1.2.10).
   */
  framework?: 'newer';
  /**
   * The newer framework's whole entry for any breach of this member, naming neither the value nor
   * the member (`Failed to satisfy constraint: Member must satisfy enum value set: […]` for the
   * ReturnValues of PutItem, UpdateItem and DeleteItem, 2026; docs/dynamodb.md §1.2.10).
   */
  entry?: string;
  /**
   * The newer framework checks this member before the others and stops there: its entry is the
   * only one reported (UpdateItem's ReturnValues, 2026; docs/dynamodb.md §1.2.10).
   */
  alone?: boolean;
}

export interface StringShape extends Constraints {
  kind: 'string';
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /**
   * A value that is neither empty nor an ARN is a name: the pattern and these lengths hold for it
   * instead of `minLength`/`maxLength` (data-plane TableName: an ARN of 1..1024 characters or a
   * name of 3..255, and `''` breaks only the length of 1; docs/dynamodb.md §2.5.3).
   */
  names?: { minLength: number; maxLength: number };
  /**
   * `''` breaks the newer framework's length of 1, which is checked before every other member and
   * reported alone: `Value at 'TableName' failed to satisfy constraint: Member must have length
   * greater than or equal to 1` (PutItem, UpdateItem, DeleteItem, 2026; docs/dynamodb.md §2.5.3).
   */
  emptyFirst?: boolean;
  enum?: readonly string[];
}
export interface BooleanShape extends Constraints {
  kind: 'boolean';
}
export interface IntegerShape extends Constraints {
  kind: 'integer';
  /** `Integer` or `Long`: named in the serialization messages. */
  javaType?: 'Integer' | 'Long';
  min?: number;
  max?: number;
}
export interface BlobShape extends Constraints {
  kind: 'blob';
}
export interface ListShape extends Constraints {
  kind: 'list';
  member: Shape;
  minLength?: number;
  maxLength?: number;
}
export interface MapShape extends Constraints {
  kind: 'map';
  value: Shape;
  /** Constraints on the keys: reported as `Map keys must satisfy constraint: [...]`. */
  key?: StringShape;
  /** How an entry prints the map: Java-style `{k=v}` by default, or JSON. */
  echo?: 'json';
  minLength?: number;
  maxLength?: number;
}
export interface StructureShape extends Constraints {
  kind: 'structure';
  /** The AWS shape name, e.g. `KeySchemaElement` (named in serialization messages). */
  name: string;
  members: Record<string, Shape>;
}
/** An AttributeValue: type-checked here, validated and normalised by `core/model`. */
export interface AttributeValueShape extends Constraints {
  kind: 'attributeValue';
}
/** A map of attribute name → AttributeValue (an item, a key, ExpressionAttributeValues...). */
export interface AttributeMapShape extends Constraints {
  kind: 'attributeMap';
  minLength?: number;
  maxLength?: number;
  /** Keys are attribute names (an item, a key), checked as such (docs/dynamodb.md §2.5.4). */
  names?: boolean;
}

export const JAVA_PACKAGE = 'com.amazonaws.dynamodb.v20120810';

/** Lower-cases the first letter, as the service spells member paths (`KeySchema` → `keySchema`). */
export function lowerFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}

/** Formats a value as the constraint messages print it: `'abc'`, `'[a, b]'`, or `null`. */
export function formatConstraintValue(value: unknown, shape?: Shape): string {
  if (value === undefined || value === null) return 'null';
  if (shape?.kind === 'map' && shape.echo === 'json' && typeof value === 'object')
    return `'${JSON.stringify(value)}'`;
  if (shape?.kind === 'list' && shape.member.kind === 'structure' && Array.isArray(value)) {
    // Structures print as Java beans: `[KeySchemaElement(attributeName=a, keyType=HASH), …]`
    // (2026, one of the two forms recorded; docs/dynamodb.md §1.2.8).
    const { name } = shape.member;
    return `'[${value.map((element) => `${name}(${beanMembers(element)})`).join(', ')}]'`;
  }
  return `'${formatJavaValue(value)}'`;
}

function beanMembers(element: unknown): string {
  if (typeof element !== 'object' || element === null) return String(element);
  return Object.entries(element)
    .map(([key, entry]) => `${lowerFirst(key)}=${formatJavaValue(entry)}`)
    .join(', ');
}

/**
 * Lists print as `[a, b]`, maps Java-style as `{k=v}` (`Value '{t=[…]}' at 'requestItems'` in
 * BatchWriteItem, 2026); a shape with `echo: 'json'` prints its value as JSON instead
 * (`Value '{"bad!name":{…}}' at 'requestItems'` in BatchGetItem, 2026; docs/dynamodb.md §1.2.8).
 */
function formatJavaValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatJavaValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, entry]) => `${key}=${formatJavaValue(entry)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/**
 * Collects constraint-list entries (pass 2). Returns the entries; `throwConstraintErrors` formats
 * them as the service does.
 */
export function collectConstraintErrors(
  input: Record<string, unknown>,
  members: Record<string, Shape>,
): string[] {
  const errors: string[] = [];
  if (plainlyValid(input, members)) return errors;
  const first = reportedAlone(input, members);
  if (first !== undefined) return first;
  checkMembers(input, members, '', '', errors);
  return errors;
}

/**
 * The entries of the first top-level member the newer framework checks before the rest and stops
 * at (`emptyFirst`, `alone`), in the declared order; undefined when none breaks.
 */
function reportedAlone(input: Record<string, unknown>, members: Record<string, Shape>): string[] | undefined {
  for (const name in members) {
    const shape = members[name]!;
    const value = input[name];
    if (shape.kind === 'string' && shape.emptyFirst && value === '')
      return [
        `Value at '${name}' failed to satisfy constraint: Member must have length greater than or equal to 1`,
      ];
    if (!shape.alone || value === undefined || value === null || alwaysValid(value, shape)) continue;
    const errors: string[] = [];
    checkValue(value, shape, { path: lowerFirst(name), named: name }, errors);
    if (errors.length > 0) return errors;
  }
  return undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;
const requiredNames = new WeakMap<Record<string, Shape>, string[]>();

/**
 * Whether a request certainly has no constraint error: every member it carries is valid at a
 * glance and every required member is there. Looks at the few members a request carries rather
 * than the dozen its operation declares (a PutItem carries 2 of 11). When unsure, the full
 * ordered check runs, so the answer and its order are unchanged.
 */
function plainlyValid(input: Record<string, unknown>, members: Record<string, Shape>): boolean {
  for (const name in input) {
    if (!hasOwn.call(input, name)) continue;
    const value = input[name];
    if (value === undefined || value === null) continue;
    const shape = hasOwn.call(members, name) ? members[name] : undefined;
    if (shape === undefined || !alwaysValid(value, shape)) return false;
  }
  let required = requiredNames.get(members);
  if (required === undefined) {
    required = Object.keys(members).filter((name) => members[name]!.required);
    requiredNames.set(members, required);
  }
  for (const name of required) {
    const value = input[name];
    if (value === undefined || value === null) return false;
  }
  return true;
}

const MAX_CONSTRAINT_ERRORS = 10;

/**
 * A member's place in the request, spelt both ways: `path` in lower camel case for the older
 * entries (`requestItems.t.member.keys`), `named` as the members are declared for the newer ones
 * (`RequestItems.t.member.Keys`).
 */
interface Place {
  readonly path: string;
  readonly named: string;
}

function checkMembers(
  input: Record<string, unknown>,
  members: Record<string, Shape>,
  parent: string,
  parentNamed: string,
  errors: string[],
) {
  // for-in: shape records are plain literals (own members only), and it makes no key array.
  for (const name in members) {
    const shape = members[name]!;
    const value = input[name];
    // Most members are absent or trivially valid: skip them before building their path (these
    // checks took ~10% of a GetItem, measured, mostly strings made for paths never printed).
    if (value === undefined || value === null ? !shape.required : alwaysValid(value, shape)) continue;
    const place: Place = {
      path: parent === '' ? lowerFirst(name) : `${parent}.${lowerFirst(name)}`,
      named: parentNamed === '' ? name : `${parentNamed}.${name}`,
    };
    checkValue(value, shape, place, errors);
  }
}

/** Whether `checkValue` would find nothing wrong with a present value, decided without allocating. */
function alwaysValid(value: unknown, shape: Shape): boolean {
  switch (shape.kind) {
    case 'string':
      return satisfiesString(value as string, shape);
    case 'attributeMap':
      return shape.minLength === undefined && shape.maxLength === undefined;
    case 'boolean':
    case 'blob':
    case 'attributeValue':
      return true;
    default:
      return false;
  }
}

/**
 * `stringConstraintFailures(value, shape).length === 0`, without the array, and without building
 * the limits `limitsOf` returns: this runs for every string member of every request (TableName
 * of each PutItem), and the object `limitsOf` spreads was ~2 % of a PutItem's server time over
 * HTTP (bench/workload.ts, a V8 CPU profile).
 */
function satisfiesString(value: string, shape: StringShape): boolean {
  let { minLength, maxLength } = shape;
  let pattern = shape.pattern;
  const names = shape.names;
  if (names !== undefined) {
    if (takesArnLimits(value)) pattern = undefined;
    else ({ minLength, maxLength } = names);
  }
  return (
    (maxLength === undefined || value.length <= maxLength) &&
    (minLength === undefined || value.length >= minLength) &&
    (pattern === undefined || compiledPattern(pattern).test(value)) &&
    (shape.enum === undefined || shape.enum.includes(value))
  );
}

/** The lengths and pattern that hold for one value (see `StringShape.names`). */
function limitsOf(
  value: string,
  shape: StringShape,
): { minLength?: number; maxLength?: number; pattern?: string } {
  if (shape.names === undefined) return shape;
  if (takesArnLimits(value)) return { minLength: shape.minLength, maxLength: shape.maxLength };
  return { ...shape.names, pattern: shape.pattern };
}

/** Whether a value of a shape with `names` is held to the shape's own (ARN) limits, unpatterned. */
function takesArnLimits(value: string): boolean {
  return value === '' || value.startsWith('arn:');
}

function push(errors: string[], value: unknown, place: Place, constraint: string, shape?: Shape) {
  if (errors.length >= MAX_CONSTRAINT_ERRORS) return;
  if (shape?.entry !== undefined) {
    errors.push(shape.entry);
    return;
  }
  errors.push(
    shape?.framework === 'newer'
      ? `Value at '${place.named}' failed to satisfy constraint: ${constraint}`
      : `Value ${formatConstraintValue(value, shape)} at '${place.path}' failed to satisfy constraint: ${constraint}`,
  );
}

function lengthOf(value: unknown): number {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return 0;
}

function checkLength(
  value: unknown,
  shape: Shape & { minLength?: number; maxLength?: number },
  place: Place,
  errors: string[],
) {
  const length = lengthOf(value);
  if (shape.minLength !== undefined && length < shape.minLength) {
    push(errors, value, place, `Member must have length greater than or equal to ${shape.minLength}`, shape);
  }
  if (shape.maxLength !== undefined && length > shape.maxLength) {
    push(errors, value, place, `Member must have length less than or equal to ${shape.maxLength}`, shape);
  }
}

const compiledPatterns = new Map<string, RegExp>();

function compiledPattern(pattern: string): RegExp {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    compiled = new RegExp(`^${pattern}$`);
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

/** Every constraint of a string shape, in the service's order. */
function allStringConstraints(shape: StringShape): string[] {
  const all: string[] = [];
  // A name-or-ARN key prints the name's lengths (docs/dynamodb.md §7.1.1, recorded 2026).
  const { minLength, maxLength } = shape.names ?? shape;
  if (maxLength !== undefined) all.push(`Member must have length less than or equal to ${maxLength}`);
  if (minLength !== undefined) all.push(`Member must have length greater than or equal to ${minLength}`);
  if (shape.pattern !== undefined)
    all.push(`Member must satisfy regular expression pattern: ${shape.pattern}`);
  if (shape.enum !== undefined) all.push(`Member must satisfy enum value set: [${shape.enum.join(', ')}]`);
  return all;
}

/** The texts of a string constraint that `value` breaks (used for values and for map keys). */
export function stringConstraintFailures(value: string, shape: StringShape): string[] {
  const failures: string[] = [];
  const { minLength, maxLength, pattern } = limitsOf(value, shape);
  if (maxLength !== undefined && value.length > maxLength) {
    failures.push(`Member must have length less than or equal to ${maxLength}`);
  }
  if (minLength !== undefined && value.length < minLength) {
    failures.push(`Member must have length greater than or equal to ${minLength}`);
  }
  if (pattern !== undefined && !compiledPattern(pattern).test(value)) {
    failures.push(`Member must satisfy regular expression pattern: ${pattern}`);
  }
  if (shape.enum !== undefined && !shape.enum.includes(value)) {
    failures.push(`Member must satisfy enum value set: [${shape.enum.join(', ')}]`);
  }
  return failures;
}

function checkValue(value: unknown, shape: Shape, place: Place, errors: string[]): void {
  if (value === undefined || value === null) {
    // A missing member keeps the older entry where its lengths moved to the newer framework, as
    // the data-plane TableName did (`Value null at 'tableName'` beside `Value at 'TableName'` for
    // `''`, 2026; docs/dynamodb.md §1.2.10).
    if (shape.required)
      push(errors, value, place, 'Member must not be null', { ...shape, framework: undefined });
    return;
  }
  switch (shape.kind) {
    case 'string':
      for (const failure of stringConstraintFailures(value as string, shape))
        push(errors, value, place, failure, shape);
      return;
    case 'integer': {
      const number = value as number;
      if (shape.min !== undefined && number < shape.min) {
        push(errors, value, place, `Member must have value greater than or equal to ${shape.min}`, shape);
      }
      if (shape.max !== undefined && number > shape.max) {
        push(errors, value, place, `Member must have value less than or equal to ${shape.max}`, shape);
      }
      return;
    }
    case 'list': {
      checkLength(value, shape, place, errors);
      const list = value as unknown[];
      for (let i = 0; i < list.length; i++)
        checkValue(list[i], shape.member, member(place, `${i + 1}`), errors);
      return;
    }
    case 'map': {
      const map = value as Record<string, unknown>;
      // Map key and map value entries print the member's whole constraint set, not only the
      // broken part (docs/dynamodb.md §7.1.1, §7.2.1).
      if (shape.key) {
        for (const key of Object.keys(map)) {
          if (stringConstraintFailures(key, shape.key).length > 0) {
            // Still the older entry, with the map echoed, where the newer framework reports the
            // map's length (BatchGetItem, 2026).
            push(
              errors,
              value,
              place,
              `Map keys must satisfy constraint: [${allStringConstraints(shape.key).join(', ')}]`,
              { ...shape, framework: undefined },
            );
            break;
          }
        }
      }
      for (const key of Object.keys(map)) {
        const entry = map[key];
        if (shape.value.kind === 'list' && Array.isArray(entry)) {
          const { minLength, maxLength } = shape.value;
          const entryPlace = member({ path: `${place.path}.${key}`, named: `${place.named}.${key}` }, '');
          // The newer framework names the list, `Value at 'RequestItems.<t>.member' … less than or
          // equal to 25` (BatchWriteItem, 2026; docs/dynamodb.md §7.2.1), where the older entry
          // echoes the whole map with every constraint of the value.
          if (shape.value.framework === 'newer') checkLength(entry, shape.value, entryPlace, errors);
          else if (
            (maxLength !== undefined && entry.length > maxLength) ||
            (minLength !== undefined && entry.length < minLength)
          ) {
            const all: string[] = [];
            if (maxLength !== undefined)
              all.push(`Member must have length less than or equal to ${maxLength}`);
            if (minLength !== undefined)
              all.push(`Member must have length greater than or equal to ${minLength}`);
            push(errors, value, place, `Map value must satisfy constraint: [${all.join(', ')}]`, shape);
          }
          const entryMember = shape.value.member;
          for (let i = 0; i < entry.length; i++)
            checkValue(entry[i], entryMember, member(entryPlace, `${i + 1}`), errors);
        } else {
          checkValue(entry, shape.value, member(place, key), errors);
        }
      }
      checkLength(value, shape, place, errors);
      return;
    }
    case 'structure':
      checkMembers(value as Record<string, unknown>, shape.members, place.path, place.named, errors);
      return;
    case 'attributeMap':
      checkLength(value, shape, place, errors);
      return;
    default:
      return;
  }
}

/** The place of a list element or map entry: `<path>.<step>.member` (`<path>.member` for step ''). */
function member(place: Place, step: string): Place {
  const suffix = step === '' ? '.member' : `.${step}.member`;
  return { path: `${place.path}${suffix}`, named: `${place.named}${suffix}` };
}

/** Throws the constraint list as one ValidationException, as the service formats it. */
export function throwConstraintErrors(errors: string[]): void {
  if (errors.length === 0) return;
  throw new ValidationException(
    `${errors.length} validation error${errors.length === 1 ? '' : 's'} detected: ${errors.join('; ')}`,
  );
}
