import { SerializationException, ValidationException } from '../errors/index.js';
import {
  expectBlob,
  expectBoolean,
  expectList,
  expectMap,
  expectString,
  expectStructure,
  jsonKind,
  type Position,
} from '../model/jsonTypes.js';
import {
  ATTRIBUTE_VALUE_CLASS,
  type AttributeProblems,
  parseAttributeMap,
  parseAttributeValue,
} from '../model/parseAttributeValue.js';
import { JAVA_PACKAGE, type Shape } from './shape.js';

/**
 * Pass 1 of request checking: JSON types. Returns a clean copy of the input (unknown members
 * dropped, nulls removed, AttributeValues normalised) and, per top-level member, the first
 * AttributeValue problem found, which the operation reports at its own step (docs/dynamodb.md §8.2).
 * Type errors throw SerializationException at once.
 */
export interface Deserialized {
  input: Record<string, unknown>;
  /** First AttributeValue problem per top-level member (e.g. `Item`, `ExpressionAttributeValues`). */
  attributeProblems: Map<string, AttributeProblem>;
  /** The request as received (a few checks look at values before normalisation, docs/dynamodb.md §9.10). */
  raw: Record<string, unknown>;
}

export interface AttributeProblem {
  message: string;
  /** For attribute maps: the key whose value held the problem. */
  key: string | undefined;
}

/** Throws the first AttributeValue problem recorded for a member, if any. */
export function throwAttributeProblem(deserialized: Deserialized, member: string): void {
  const problem = deserialized.attributeProblems.get(member);
  if (problem !== undefined) throw new ValidationException(problem.message);
}

/**
 * Shared by requests without problems (nearly all): never written to, since only `deserialize`
 * sets entries, and it makes its own map when it has one to set.
 */
const NO_PROBLEMS: Map<string, AttributeProblem> = new Map();

export function deserialize(raw: Record<string, unknown>, members: Record<string, Shape>): Deserialized {
  // One Map and one problems record per request rather than per member, made only when needed:
  // part of the per-request garbage that cost PutItem and GetItem ~5% in GC (measured).
  let attributeProblems = NO_PROBLEMS;
  const input: Record<string, unknown> = {};
  const problems: AttributeProblems = { first: undefined, firstKey: undefined };
  // for-in + hasOwn visits what Object.keys lists, in its order, without making the array.
  for (const name in raw) {
    if (!hasOwn.call(raw, name)) continue;
    const shape = members[name];
    const value = raw[name];
    if (shape === undefined || value === null || value === undefined) continue;
    input[name] = readValue(value, shape, 'field', problems);
    if (problems.first !== undefined) {
      if (attributeProblems === NO_PROBLEMS) attributeProblems = new Map();
      attributeProblems.set(name, { message: problems.first, key: problems.firstKey });
      problems.first = undefined;
      problems.firstKey = undefined;
    }
  }
  return { input, attributeProblems, raw };
}

const hasOwn = Object.prototype.hasOwnProperty;

function readInteger(value: unknown, javaType: string): number {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.trunc(value);
  const kind = jsonKind(value);
  if (kind === 'array')
    throw new SerializationException(`Unrecognized collection type class java.lang.${javaType}`);
  if (kind === 'object')
    throw new SerializationException('Start of structure or map found where not expected');
  const token = kind === 'true' ? 'TRUE_VALUE' : kind === 'false' ? 'FALSE_VALUE' : 'STRING_VALUE';
  throw new SerializationException(`${token} cannot be converted to ${javaType}`);
}

function valueClassOf(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'java.lang.String';
    case 'structure':
      return `${JAVA_PACKAGE}.${shape.name}`;
    case 'attributeValue':
      return ATTRIBUTE_VALUE_CLASS;
    case 'list':
      // `java.util.Map<java.lang.String, java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>>`
      // (BatchWriteItem's RequestItems, recorded in dynalite's tests).
      return `java.util.List<${valueClassOf(shape.member)}>`;
    default:
      return 'java.lang.Object';
  }
}

function readValue(value: unknown, shape: Shape, position: Position, problems: AttributeProblems): unknown {
  switch (shape.kind) {
    case 'string':
      return expectString(value);
    case 'boolean':
      return expectBoolean(value);
    case 'integer':
      return readInteger(value, shape.javaType ?? 'Integer');
    case 'blob':
      return expectBlob(value);
    case 'list': {
      const list = expectList(value, position);
      const out: unknown[] = [];
      for (const element of list) {
        if (element === null || element === undefined) continue;
        out.push(readValue(element, shape.member, 'element', problems));
      }
      return out;
    }
    case 'map': {
      const map = expectMap(value, position, valueClassOf(shape.value));
      const out: Record<string, unknown> = Object.create(null);
      for (const key of Object.keys(map)) {
        const entry = map[key];
        if (entry === null || entry === undefined) continue;
        out[key] = readValue(entry, shape.value, 'element', problems);
      }
      return out;
    }
    case 'structure': {
      const struct = expectStructure(value, position, `${JAVA_PACKAGE}.${shape.name}`);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(struct)) {
        const memberShape = shape.members[key];
        const entry = struct[key];
        if (memberShape === undefined || entry === null || entry === undefined) continue;
        out[key] = readValue(entry, memberShape, 'field', problems);
      }
      return out;
    }
    case 'attributeValue':
      return parseAttributeValue(value, position, problems);
    case 'attributeMap':
      return parseAttributeMap(value, position, problems, shape.names === true);
  }
}
