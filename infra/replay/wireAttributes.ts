import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb-streams';
import {
  type AttributeMap,
  type AttributeValue,
  newAttributeMap,
  setAttribute,
} from '../../core/model/attributeValue.js';

/**
 * AWS SDK attribute values → wire JSON (the form of Lambda events and of eddy's engine).
 *
 * The SDK's low-level clients decode `B` and `BS` members into `Uint8Array`s; Lambda events carry
 * them base64-encoded, as the DynamoDB JSON protocol does (docs/streams-and-lambda.md §1.2.1,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_AttributeValue.html).
 * Everything else already has its wire form (numbers are strings).
 *
 * Attribute names are data (CONTRIBUTING.md, conventions): maps are built with null prototypes and
 * `setAttribute`, so an attribute called `__proto__` stays an attribute.
 */

/** Any attribute-value shape the SDK clients decode (DynamoDB and DynamoDB Streams share it). */
export type SdkValue = SdkAttributeValue | { readonly [type: string]: unknown };

/** Converts one SDK attribute value; throws `TypeError` on a shape no AWS client produces. */
export function wireValue(value: SdkValue): AttributeValue {
  const member = value as Record<string, unknown>;
  if (member.S !== undefined) return { S: member.S as string };
  if (member.N !== undefined) return { N: member.N as string };
  if (member.B !== undefined) return { B: base64(member.B) };
  if (member.BOOL !== undefined) return { BOOL: member.BOOL as boolean };
  if (member.NULL !== undefined) return { NULL: true };
  if (member.SS !== undefined) return { SS: [...(member.SS as string[])] };
  if (member.NS !== undefined) return { NS: [...(member.NS as string[])] };
  if (member.BS !== undefined) return { BS: (member.BS as unknown[]).map(base64) };
  if (member.L !== undefined) return { L: (member.L as SdkValue[]).map(wireValue) };
  if (member.M !== undefined) return { M: wireMap(member.M as Record<string, SdkValue>) };
  throw new TypeError(`Unknown attribute value type: ${Object.keys(member).join(', ') || '(none)'}`);
}

/** Converts an SDK attribute map (an item, its keys, an image). */
export function wireMap(map: Readonly<Record<string, SdkValue>>): AttributeMap {
  const out = newAttributeMap();
  for (const name of Object.keys(map)) setAttribute(out, name, wireValue(map[name]!));
  return out;
}

function base64(bytes: unknown): string {
  if (typeof bytes === 'string') return bytes;
  if (bytes instanceof Uint8Array)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  throw new TypeError('A binary attribute value must be bytes');
}
