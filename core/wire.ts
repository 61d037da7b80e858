import { StoredItem, stringifyWithStoredItems } from './store/storedItem.js';

/**
 * Action outputs may hold `StoredItem`s where the wire has an item: the host splices their
 * stored text into the response body (no parse, no re-serialisation), and `materialize` turns
 * them into plain attribute maps for in-process callers.
 */

/** A plain-object copy of an output, with stored items decoded. */
export function materialize<T>(output: T): T {
  return materializeValue(output) as T;
}

function materializeValue(value: unknown): unknown {
  if (value instanceof StoredItem) return value.decode();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const element = value[i];
      const converted = materializeValue(element);
      if (converted !== element) {
        copy ??= value.slice();
        copy[i] = converted;
      }
    }
    return copy ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      const converted = materializeValue(member);
      if (converted !== member) {
        copy ??= Object.assign(Object.create(Object.getPrototypeOf(value)), value) as Record<string, unknown>;
        copy[key] = converted;
      }
    }
    return copy ?? value;
  }
  return value;
}

/** Serialises an output to its JSON text, splicing stored items verbatim. */
export function toWireJson(output: unknown): string {
  return stringifyWithStoredItems(output);
}
