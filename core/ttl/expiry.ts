import { type AttributeMap, getAttribute } from '../model/attributeValue.js';

/**
 * The expiry rule of Time to Live (docs/streams-and-lambda.md §5.5–5.7,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html).
 *
 * An item is expired when its TTL attribute is a top-level Number holding epoch seconds that is
 * below now, and not five years or more below now. Anything else (a missing attribute, a String
 * such as `"1700000000"`, a nested value, a value five or more years old) never expires, and
 * never fails a write: TTL is not schema.
 */

/**
 * Five years, in seconds. The service gives no exact figure; Julian years (365.25 days) make it
 * independent of where the leap days fall: 5 × 365.25 × 86,400 = 157,788,000 s.
 */
export const FIVE_YEARS_SECONDS = 5 * 365.25 * 86_400;

/**
 * The TTL value of an item in epoch seconds, or undefined when the attribute is missing or is not
 * a top-level Number. Decimals and exponents count (`12345678.1`, `1234567e1`,
 * docs/streams-and-lambda.md §5.6): the stored text is the service's normalised decimal, which `Number` reads
 * exactly enough (a double keeps epoch seconds to the microsecond). A millisecond timestamp reads as a date
 * ~50,000 years ahead and so never expires (docs/streams-and-lambda.md §5.7).
 */
export function ttlValueOf(item: AttributeMap, attributeName: string): number | undefined {
  const value = getAttribute(item, attributeName) as { N?: unknown } | undefined;
  if (value === undefined) return undefined;
  const text = value.N;
  if (typeof text !== 'string') return undefined;
  const seconds = Number(text);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/**
 * The window of TTL values that are expired at `nowMs`: strictly above `from` (five years ago)
 * and strictly below `to` (now), both in epoch seconds.
 */
export function expiryWindow(nowMs: number): { from: number; to: number } {
  const to = nowMs / 1000;
  return { from: to - FIVE_YEARS_SECONDS, to };
}

/** Whether a TTL value (epoch seconds) is expired at `nowMs` (epoch milliseconds). */
export function isExpired(ttlSeconds: number, nowMs: number): boolean {
  const { from, to } = expiryWindow(nowMs);
  return ttlSeconds < to && ttlSeconds > from;
}
