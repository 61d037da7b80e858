import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/clock.js';
import { Engine } from '../../core/engine.js';
import type { AttributeMap } from '../../core/model/attributeValue.js';
import { type AttributeProblems, parseAttributeMap } from '../../core/model/parseAttributeValue.js';
import { encodeParsedItemSized } from '../../core/store/itemCodec.js';
import { StoredItemScanner } from '../../core/store/storedItemScan.js';
import { attachBuckets } from '../../infra/backups/index.js';

/**
 * The import's fast path (core/store/storedItemScan.ts, docs/backups.md §4.2) against the general
 * path (JSON.parse, then PutItem's parsing and canonical encoding): on random items, including
 * 38-digit and non-normalised numbers, binary (canonical or not), sets (sorted or not, with
 * duplicates), empty strings, control characters and lone surrogates, nested maps and lists, and
 * names such as `__proto__`, `0` or `""`, the scanner either declines or answers exactly the text,
 * the size and the key the general path answers; and it declines nothing an export by eddy writes
 * but the few forms it leaves to the general path.
 */

const names = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'pk',
    'a',
    'b',
    'B',
    'Z',
    '0',
    '1',
    '10',
    '01',
    '4294967295',
  ),
  fc.constantFrom(
    '',
    'é',
    '漢字',
    '😀',
    '\uE000',
    'a"b',
    'a\\b',
    '\n',
    '\u0001',
    '\u007f',
    '1a',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 6 }),
);

const strings = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  // Any UTF-16 code unit, lone surrogates included.
  fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    maxLength: 6,
  }),
  fc.constantFrom('', '"', '\\', '\b\f\n\r\t', '\u0000\u001f', '\u2028', '/'),
);

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((list) => list.join(''));

const numbers = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc
    .tuple(
      fc.constantFrom('', '-', '+'),
      digits(0, 40),
      fc.option(digits(0, 40)),
      fc.option(fc.integer({ min: -140, max: 140 })),
    )
    .map(
      ([sign, whole, fraction, exponent]) =>
        `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`,
    ),
  fc.constantFrom(
    '0',
    '-0',
    '0.0',
    '1E-130',
    '9.9E125',
    '1' + '0'.repeat(126),
    '12345678901234567890123456789012345678',
  ),
);

const binaries = fc.oneof(
  fc.uint8Array({ maxLength: 10 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.constantFrom('', 'AB==', 'AQ==', 'AQ', 'A===', '====', '-_8=', 'AQID'),
);

const sets = <T>(member: fc.Arbitrary<T>) => fc.array(member, { maxLength: 4 });

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    strings.map((S) => ({ S })),
    numbers.map((N) => ({ N })),
    binaries.map((B) => ({ B })),
    fc.boolean().map((BOOL) => ({ BOOL })),
    fc.constantFrom({ NULL: true }, { NULL: false }),
    sets(strings).map((SS) => ({ SS })),
    sets(numbers).map((NS) => ({ NS })),
    sets(binaries).map((BS) => ({ BS })),
    fc.array(tie('value'), { maxLength: 4 }).map((L) => ({ L })),
    fc.array(fc.tuple(names, tie('value')), { maxLength: 4 }).map((entries) => ({ M: mapOf(entries) })),
    // Two types, or none: invalid values.
    fc.constant({ S: 'x', N: '1' }),
    fc.constant({}),
  ),
}));

/** A map whose every name is an own, enumerable member (`__proto__` included). */
function mapOf(entries: [string, unknown][]): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const [name, entry] of entries)
    Object.defineProperty(map, name, { value: entry, enumerable: true, writable: true, configurable: true });
  return map;
}

const keyValues = fc.oneof(
  strings.map((S) => ({ S })),
  fc.constantFrom({ S: '' }, { N: '1' }, { S: 'x'.repeat(2100) }),
);

const items = fc
  .tuple(fc.option(keyValues, { freq: 8 }), fc.array(fc.tuple(names, value), { maxLength: 6 }))
  .map(([key, entries]) =>
    mapOf(key === null ? entries : [['pk', key], ...entries.filter(([name]) => name !== 'pk')]),
  );

const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

/** Whether an item holds what the scanner leaves to the general path even in the stored form. */
function declinedForm(item: AttributeMap, json: string): boolean {
  if (/\\ud[89a-f]/.test(json)) return true; // lone surrogates
  if (Object.keys(item).length === 0) return true; // no key: the general path words it
  const walk = (map: Record<string, unknown>, level: number): boolean =>
    Object.keys(map).some((name) => (INDEX_LIKE.test(name) && Number(name) < 4294967295) || name === '') ||
    Object.values(map).some((entry) => nested(entry as Record<string, unknown>, level));
  const nested = (entry: Record<string, unknown>, level: number): boolean => {
    if ('M' in entry) return level >= 32 || walk(entry.M as Record<string, unknown>, level + 1);
    if ('L' in entry)
      return level >= 32 || (entry.L as Record<string, unknown>[]).some((e) => nested(e, level + 1));
    return false;
  };
  return walk(item, 1);
}

/** The general path: what PutItem's parsing gives, or undefined when the item is invalid. */
function reference(raw: Record<string, unknown>) {
  const problems: AttributeProblems = { first: undefined, firstKey: undefined };
  let item: AttributeMap;
  try {
    item = parseAttributeMap(raw, 'field', problems);
  } catch {
    return undefined;
  }
  if (problems.first !== undefined) return undefined;
  const { json, size } = encodeParsedItemSized(item);
  return { item, json, size };
}

function scan(scanner: StoredItemScanner, text: string) {
  const bytes = Buffer.from(text, 'utf8');
  const scanned = scanner.scan(bytes, 0, bytes.length);
  return scanned === undefined || scanned.end !== bytes.length ? undefined : scanned;
}

describe('the stored-form scanner', () => {
  const scanner = new StoredItemScanner(['pk', '__proto__']);

  it('answers what the general path answers, or declines', () => {
    fc.assert(
      fc.property(items, (raw) => {
        const expected = reference(raw);
        for (const text of [JSON.stringify(raw), expected?.json].filter((t) => t !== undefined)) {
          const scanned = scan(scanner, text);
          if (scanned === undefined) continue;
          expect(expected).toBeDefined();
          expect(scanned.json).toBe(expected!.json);
          expect(scanned.size).toBe(expected!.size);
          const pk = expected!.item.pk;
          expect(scanned.keys.pk).toEqual(
            pk !== undefined && ('S' in pk || 'N' in pk || 'B' in pk) ? pk : undefined,
          );
        }
        if (expected !== undefined && expected.size <= 409_600 && !declinedForm(expected.item, expected.json))
          expect(scan(scanner, expected.json)).toBeDefined();
      }),
      { numRuns: 3000 },
    );
  });

  it('declines texts a little off the stored form, or answers what JSON.parse makes of them', () => {
    const pieces = [
      '',
      ' ',
      '"',
      '\\',
      'u',
      '0',
      '1',
      '.',
      '-',
      'e',
      ',',
      ':',
      '{',
      '}',
      '[',
      ']',
      '"pk"',
      '"S"',
      '"N"',
      '"L"',
    ];
    fc.assert(
      fc.property(
        items,
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(...pieces)), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.nat(),
        (raw, edits, duplicate) => {
          const canonical = reference(raw)?.json;
          if (canonical === undefined) return;
          let text = canonical;
          // A member written twice (JSON.parse keeps the last), then a few small edits.
          const members = /^\{("(?:[^"\\]|\\.)*":\{"[A-Z]+":(?:"(?:[^"\\]|\\.)*"|true|false)\})/.exec(text);
          if (members !== null && duplicate % 3 === 0) text = `{${members[1]},${text.slice(1)}`;
          for (const [at, remove, piece] of edits) {
            const index = at % (text.length + 1);
            text = text.slice(0, index) + piece + text.slice(index + remove);
          }
          // As the reader sees it: UTF-8 (an edit may split a surrogate pair).
          text = Buffer.from(text, 'utf8').toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            expect(scan(scanner, text)).toBeUndefined();
            return;
          }
          const scanned = scan(scanner, text);
          if (scanned === undefined) return;
          const expected =
            typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
              ? reference(parsed as Record<string, unknown>)
              : undefined;
          expect(expected?.json).toBe(text);
          expect(scanned.json).toBe(text);
          expect(scanned.size).toBe(expected!.size);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('measures numbers as numberSize does, at the edges of the range', () => {
    // 1 + ⌈digits/2⌉, one more for an even digit count with an even exponent, one for a sign.
    for (const [text, size] of [
      ['12345678901234567890123456789012345678', 20],
      ['1' + '0'.repeat(125), 2],
      ['-0.' + '0'.repeat(129) + '1', 3],
      ['0.5', 2],
      ['-17.5', 4],
      ['0', 1],
    ] as const) {
      const json = `{"n":{"N":"${text}"}}`;
      expect(scan(scanner, json)?.size, text).toBe(size + 1);
      expect(reference(JSON.parse(json))?.size, text).toBe(size + 1);
    }
    // 39 digits, beyond the range, or not normalised: the general path words the error.
    for (const text of [
      '1'.repeat(39),
      '1' + '0'.repeat(126),
      '0.' + '0'.repeat(130) + '1',
      '1.0',
      '01',
      '-0',
      '1e3',
    ])
      expect(scan(scanner, `{"n":{"N":"${text}"}}`), text).toBeUndefined();
  });
});

describe('an import of stored-form lines', () => {
  const home = mkdtempSync(join(tmpdir(), 'eddy-scan-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('gives the table the general path gives it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(items, { minLength: 1, maxLength: 12 }), async (raws) => {
        const engine = new Engine({ clock: new VirtualClock(Date.UTC(2026, 0, 1)) });
        rmSync(join(home, 'bucket'), { recursive: true, force: true });
        mkdirSync(join(home, 'bucket', 'fast'), { recursive: true });
        mkdirSync(join(home, 'bucket', 'slow'), { recursive: true });
        attachBuckets(engine, { directory: home }, { log: () => {} });
        // The same items: in the stored form where they have one (the fast path), and as sent
        // (JSON.parse and PutItem's parsing) with a space after `"Item":` so no line is scanned.
        const fast = raws.map((raw) => `{"Item":${reference(raw)?.json ?? JSON.stringify(raw)}}`);
        const slow = raws.map((raw) => `{"Item": ${JSON.stringify(raw)}}`);
        writeFileSync(join(home, 'bucket', 'fast', 'a.json'), `${fast.join('\n')}\n`);
        writeFileSync(join(home, 'bucket', 'slow', 'a.json'), `${slow.join('\n')}\n`);
        const tables = [];
        for (const form of ['fast', 'slow']) {
          const answer = engine.executeRaw('ImportTable', {
            S3BucketSource: { S3Bucket: 'bucket', S3KeyPrefix: `${form}/` },
            InputFormat: 'DYNAMODB_JSON',
            TableCreationParameters: {
              TableName: form,
              AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
              KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
              BillingMode: 'PAY_PER_REQUEST',
            },
          }) as { ImportTableDescription: { ImportArn: string } };
          await engine.settled();
          const { description } = engine.dataProtection.imports.get(answer.ImportTableDescription.ImportArn)!;
          const table = [...engine.allRegions()][0]!.tables.get(form)!;
          const stored = [...table.items.items()].map((item) => [item.json, item.size]);
          const { ImportStatus, ProcessedItemCount, ImportedItemCount, ErrorCount, ProcessedSizeBytes } =
            description as Record<string, unknown>;
          tables.push({
            stored,
            ImportStatus,
            ProcessedItemCount,
            ImportedItemCount,
            ErrorCount,
            ProcessedSizeBytes,
          });
        }
        const [fastTable, slowTable] = tables;
        expect({ ...fastTable, ProcessedSizeBytes: 0 }).toEqual({ ...slowTable, ProcessedSizeBytes: 0 });
      }),
      { numRuns: 60 },
    );
  });
});
