import { describe, expect, it } from 'vitest';
import { expiryWindow, FIVE_YEARS_SECONDS, isExpired, ttlValueOf } from '../../../core/ttl/expiry.js';
import { START_MS, START_S } from './helpers.js';

describe('ttlValueOf (docs/streams-and-lambda.md §5.5, §5.6)', () => {
  it('reads a top-level Number as epoch seconds', () => {
    expect(ttlValueOf({ ttl: { N: '1704067200' } }, 'ttl')).toBe(1704067200);
  });

  it('accepts decimals and exponents', () => {
    expect(ttlValueOf({ ttl: { N: '12345678.1' } }, 'ttl')).toBe(12345678.1);
    expect(ttlValueOf({ ttl: { N: '12345670' } }, 'ttl')).toBe(1234567e1);
  });

  it('ignores a String, even one holding digits', () => {
    expect(ttlValueOf({ ttl: { S: '1704067200' } }, 'ttl')).toBeUndefined();
    expect(ttlValueOf({ ttl: { S: "A string obviously won't work!" } }, 'ttl')).toBeUndefined();
  });

  it('ignores other types, nested Numbers and a missing attribute', () => {
    expect(ttlValueOf({ ttl: { NS: ['1'] } }, 'ttl')).toBeUndefined();
    expect(ttlValueOf({ ttl: { L: [{ N: '1' }] } }, 'ttl')).toBeUndefined();
    expect(ttlValueOf({ meta: { M: { ttl: { N: '1' } } } }, 'ttl')).toBeUndefined();
    expect(ttlValueOf({}, 'ttl')).toBeUndefined();
  });

  it('never reads an inherited property', () => {
    expect(ttlValueOf({}, 'constructor')).toBeUndefined();
    expect(ttlValueOf({}, '__proto__')).toBeUndefined();
  });
});

describe('isExpired (docs/streams-and-lambda.md §5.5, §5.7)', () => {
  it('is true strictly below now', () => {
    expect(isExpired(START_S - 1, START_MS)).toBe(true);
    expect(isExpired(START_S - 0.001, START_MS)).toBe(true);
    expect(isExpired(START_S, START_MS)).toBe(false);
    expect(isExpired(START_S + 1, START_MS)).toBe(false);
  });

  it('is false five years or more in the past', () => {
    expect(isExpired(START_S - FIVE_YEARS_SECONDS + 1, START_MS)).toBe(true);
    expect(isExpired(START_S - FIVE_YEARS_SECONDS, START_MS)).toBe(false);
    expect(isExpired(162777600, START_MS)).toBe(false); // 1975: long past, never deleted
    expect(isExpired(-5, START_MS)).toBe(false);
  });

  it('never expires a millisecond timestamp (about 50,000 years ahead)', () => {
    expect(isExpired(START_MS - 1000, START_MS)).toBe(false);
  });

  it('defines five years as 5 × 365.25 days', () => {
    expect(FIVE_YEARS_SECONDS).toBe(157_788_000);
    expect(expiryWindow(START_MS)).toEqual({ from: START_S - 157_788_000, to: START_S });
  });
});
