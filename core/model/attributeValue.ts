/**
 * The DynamoDB data model in its wire form (docs/dynamodb.md §2.1,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_AttributeValue.html).
 *
 * Attribute names are data: `__proto__` or `constructor` are ordinary names. Maps that eddy builds
 * are null-prototype objects, and every read goes through `getAttribute`, which checks own
 * properties, so a name never resolves to something inherited.
 */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] }
  | { L: AttributeValue[] }
  | { M: AttributeMap };

export type AttributeMap = { [name: string]: AttributeValue };
/** An item is a top-level attribute map. */
export type Item = AttributeMap;

export const AttributeTypes = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'] as const;
export type AttributeType = (typeof AttributeTypes)[number];
export const ScalarKeyTypes = ['S', 'N', 'B'] as const;
export type ScalarKeyType = (typeof ScalarKeyTypes)[number];

const hasOwn = Object.prototype.hasOwnProperty;

/** A fresh attribute map that cannot inherit anything. */
export function newAttributeMap(): AttributeMap {
  return Object.create(null) as AttributeMap;
}

/**
 * Sets an attribute on a map of either kind. On an ordinary object, assigning `__proto__` would
 * replace the prototype instead of storing data: define it as an own property instead.
 */
export function setAttribute(map: AttributeMap, name: string, value: AttributeValue): void {
  if (name === '__proto__') {
    Object.defineProperty(map, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    map[name] = value;
  }
}

/**
 * A fresh ordinary-object map (V8 fast properties: quicker to fill and to serialise than a
 * null-prototype map). Write only with `setAttribute`, read only with `getAttribute`.
 */
export function newFastAttributeMap(): AttributeMap {
  return {} as AttributeMap;
}

/** Reads an attribute by name, never an inherited property. */
export function getAttribute(map: AttributeMap, name: string): AttributeValue | undefined {
  return hasOwn.call(map, name) ? map[name] : undefined;
}

export function hasAttribute(map: AttributeMap, name: string): boolean {
  return hasOwn.call(map, name);
}

/** The type tag of a (validated) attribute value. */
export function typeOf(value: AttributeValue): AttributeType {
  // Validated values have exactly one own key, which is the type.
  for (const key in value) return key as AttributeType;
  throw new Error('typeOf: empty attribute value');
}

/** Copies a map into a null-prototype map (shallow). */
export function copyAttributeMap(map: AttributeMap): AttributeMap {
  const copy = newAttributeMap();
  for (const name of Object.keys(map)) copy[name] = map[name]!;
  return copy;
}

export function isSetType(type: AttributeType): type is 'SS' | 'NS' | 'BS' {
  return type === 'SS' || type === 'NS' || type === 'BS';
}
