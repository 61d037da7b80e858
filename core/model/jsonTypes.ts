import { SerializationException } from '../errors/index.js';
import { checkBase64 } from './binary.js';

/**
 * JSON type checks with the service's SerializationException texts (docs/dynamodb.md §1.2.7; the texts were
 * recorded against AWS in dynalite's test helpers). The service parses with a Java JSON binder, so
 * the messages name Jackson tokens (`NUMBER_VALUE`) and Java classes.
 */

/** Where a JSON value sits: a structure's field, or an element of a list or map. */
export type Position = 'field' | 'element';

export function jsonKind(
  value: unknown,
): 'string' | 'true' | 'false' | 'integer' | 'decimal' | 'array' | 'object' {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'decimal';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

const TOKEN_NAMES = {
  true: 'TRUE_VALUE',
  false: 'FALSE_VALUE',
  integer: 'NUMBER_VALUE',
  decimal: 'DECIMAL_VALUE',
  string: 'STRING_VALUE',
} as const;

export function expectString(value: unknown): string {
  if (typeof value === 'string') return value;
  const kind = jsonKind(value);
  if (kind === 'array')
    throw new SerializationException('Unrecognized collection type class java.lang.String');
  if (kind === 'object')
    throw new SerializationException('Start of structure or map found where not expected');
  throw new SerializationException(`${TOKEN_NAMES[kind]} cannot be converted to String`);
}

/**
 * A boolean member; the service's JSON parser also reads the strings `true`, `1`, `yes` and
 * `false`, `0`, `no` in any case (dynalite's recorded tests; docs/dynamodb.md §1.2.7).
 */
export function expectBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const kind = jsonKind(value);
  if (kind === 'string') {
    const word = (value as string).toUpperCase();
    if (word === 'TRUE' || word === '1' || word === 'YES') return true;
    if (word === 'FALSE' || word === '0' || word === 'NO') return false;
    throw new SerializationException('Unexpected token received from parser');
  }
  if (kind === 'array')
    throw new SerializationException('Unrecognized collection type class java.lang.Boolean');
  if (kind === 'object')
    throw new SerializationException('Start of structure or map found where not expected');
  throw new SerializationException(
    `${TOKEN_NAMES[kind as 'integer' | 'decimal']} cannot be converted to Boolean`,
  );
}

/** Checks a base64 member; returns the canonical text. */
export function expectBlob(value: unknown): string {
  if (typeof value !== 'string') {
    const kind = jsonKind(value);
    if (kind === 'array')
      throw new SerializationException('Unrecognized collection type class java.nio.ByteBuffer');
    if (kind === 'object')
      throw new SerializationException('Start of structure or map found where not expected');
    throw new SerializationException('only base-64-encoded strings are convertible to bytes');
  }
  const checked = checkBase64(value);
  if (!checked.ok) throw new SerializationException(checked.message);
  return checked.value;
}

/** Checks that a value is a JSON array (a list member of a structure). */
export function expectList(value: unknown, position: Position): unknown[] {
  if (Array.isArray(value)) return value;
  const kind = jsonKind(value);
  if (kind === 'object')
    throw new SerializationException('Start of structure or map found where not expected');
  throw new SerializationException(position === 'field' ? 'Unexpected field type' : CAST_MESSAGE);
}

/** Checks that a value is a JSON object used as a map. `valueClass` names the map's value type. */
export function expectMap(value: unknown, position: Position, valueClass: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  if (Array.isArray(value)) {
    throw new SerializationException(
      `Unrecognized collection type java.util.Map<java.lang.String, ${valueClass}>`,
    );
  }
  throw new SerializationException(position === 'field' ? 'Unexpected field type' : CAST_MESSAGE);
}

/** Checks that a value is a JSON object used as a structure named `className`. */
export function expectStructure(
  value: unknown,
  position: Position,
  className: string,
): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  if (Array.isArray(value))
    throw new SerializationException(`Unrecognized collection type class ${className}`);
  throw new SerializationException(
    position === 'field' ? 'Unexpected field type' : 'Unexpected value type in payload',
  );
}

export const CAST_MESSAGE =
  "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module java.base of loader 'bootstrap')";
