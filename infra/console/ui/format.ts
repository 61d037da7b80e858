import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/** A DynamoDB JSON item (`{ "pk": { "S": "a" } }`). */
export type AttributeMap = Record<string, unknown>;

/** DynamoDB JSON → plain JSON; numbers beyond a double's precision stay strings. */
export function plain(item: AttributeMap | undefined): Record<string, unknown> | undefined {
  if (item === undefined) return undefined;
  return unmarshall(item as never, { wrapNumbers: (text: string) => safeNumber(text) });
}

function safeNumber(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) || (!Number.isInteger(value) && String(value) === text) ? value : text;
}

/** Plain JSON → DynamoDB JSON (for PutItem and expression values). */
export function dynamo(value: Record<string, unknown>): AttributeMap {
  return marshall(value, { removeUndefinedValues: true, convertEmptyValues: false }) as AttributeMap;
}

/** `pk (HASH), sk (RANGE)` */
export function keySchema(schema: unknown): string {
  if (!Array.isArray(schema)) return '';
  return schema
    .map(
      (element: { AttributeName?: string; KeyType?: string }) =>
        `${element.AttributeName} (${element.KeyType})`,
    )
    .join(', ');
}

/** `pk=a sk=1`: a key map in one line. */
export function keyText(keys: AttributeMap | undefined): string {
  const values = plain(keys) ?? {};
  return Object.entries(values)
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

/** What changed between an old and a new image, attribute by attribute. */
export function diff(
  oldImage: AttributeMap | undefined,
  newImage: AttributeMap | undefined,
): { name: string; before: string | undefined; after: string | undefined }[] {
  const before = plain(oldImage) ?? {};
  const after = plain(newImage) ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes = [];
  for (const name of names) {
    const was = name in before ? JSON.stringify(before[name]) : undefined;
    const now = name in after ? JSON.stringify(after[name]) : undefined;
    if (was !== now) changes.push({ name, before: was, after: now });
  }
  return changes;
}

export function bytes(value: unknown): string {
  const n = Number(value ?? 0);
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}
