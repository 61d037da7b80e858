import { expect } from 'vitest';
import { ValidationException } from '../../../core/errors/index.js';
import { ExpressionScope } from '../../../core/expressions/index.js';
import type { AttributeMap, AttributeValue } from '../../../core/model/attributeValue.js';

/** Runs `act` and returns the ValidationException message it threw (fails otherwise). */
export function validationMessage(act: () => unknown): string {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationException);
    return (error as ValidationException).message;
  }
  throw new Error('expected a ValidationException, nothing was thrown');
}

/** A scope with the given names and values (plain objects, as JSON.parse builds them). */
export function scope(
  names?: Record<string, string>,
  values?: Record<string, AttributeValue>,
): ExpressionScope {
  return new ExpressionScope(names, values as AttributeMap | undefined);
}

export const S = (value: string): AttributeValue => ({ S: value });
export const N = (value: string): AttributeValue => ({ N: value });
/** Base64 of a text's bytes. */
export const base64 = (text: string): string => Buffer.from(text).toString('base64');
export const B = (text: string): AttributeValue => ({ B: base64(text) });
export const L = (...values: AttributeValue[]): AttributeValue => ({ L: values });
export const M = (entries: Record<string, AttributeValue>): AttributeValue => ({ M: entries });
