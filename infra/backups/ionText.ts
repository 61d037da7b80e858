import { createRequire } from 'node:module';
import type * as IonJs from 'ion-js';

/**
 * DynamoDB items ↔ Amazon Ion text, as exports write them and imports read them
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html):
 * S → string, N → decimal, B → blob, BOOL → bool, NULL → null, L → list, M → struct, and sets
 * as lists annotated `$dynamodb_SS`, `$dynamodb_NS`, `$dynamodb_BS`. Each line is
 * `$ion_1_0 {Item:{...}}`. Field names are written as quoted strings (Ion allows any name so).
 */

type Value = Record<string, unknown>;

/** A DynamoDB number as an Ion decimal: `103.`, `6d2` (600), `1.5`, `-2.5d-3`. */
export function ionDecimal(number: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(number);
  if (match === null) return number;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  let exponent = Number(exponentText ?? 0) - fraction.length;
  if (/^0+$/.test(digits)) return `${sign}0.`;
  // Trailing zeros of an integer move into the exponent, as the service writes them (600 → 6d2).
  while (digits.length > 1 && digits.endsWith('0') && exponent >= 0) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  if (exponent === 0) return `${sign}${digits}.`;
  if (exponent < 0 && -exponent < digits.length)
    return `${sign}${digits.slice(0, digits.length + exponent)}.${digits.slice(digits.length + exponent)}`;
  return `${sign}${digits}d${exponent}`;
}

function encodeValue(value: Value): string {
  if ('S' in value) return JSON.stringify(value.S);
  if ('N' in value) return ionDecimal(value.N as string);
  if ('B' in value) return `{{${value.B as string}}}`;
  if ('BOOL' in value) return value.BOOL ? 'true' : 'false';
  if ('NULL' in value) return 'null';
  if ('SS' in value)
    return `$dynamodb_SS::[${(value.SS as string[]).map((s) => JSON.stringify(s)).join(',')}]`;
  if ('NS' in value) return `$dynamodb_NS::[${(value.NS as string[]).map(ionDecimal).join(',')}]`;
  if ('BS' in value) return `$dynamodb_BS::[${(value.BS as string[]).map((b) => `{{${b}}}`).join(',')}]`;
  if ('L' in value) return `[${(value.L as Value[]).map(encodeValue).join(',')}]`;
  if ('M' in value) return encodeMap(value.M as Record<string, Value>);
  throw new TypeError(`not an attribute value: ${JSON.stringify(value)}`);
}

function encodeMap(map: Record<string, Value>): string {
  const fields: string[] = [];
  for (const name of Object.keys(map)) fields.push(`${JSON.stringify(name)}:${encodeValue(map[name]!)}`);
  return `{${fields.join(',')}}`;
}

/** One export line of an item, from its DynamoDB JSON text. */
export function ionLine(member: string, itemJson: string): string {
  return `$ion_1_0 {${member}:${encodeMap(JSON.parse(itemJson) as Record<string, Value>)}}`;
}

/** `$ion_1_0 {Metadata:...,Keys:...,NewImage:...,OldImage:...}` of an incremental export. */
export function ionRecord(members: [string, string][]): string {
  return `$ion_1_0 {${members.map(([name, ion]) => `${name}:${ion}`).join(',')}}`;
}

export function ionOfItemJson(itemJson: string): string {
  return encodeMap(JSON.parse(itemJson) as Record<string, Value>);
}

// ion-js is CommonJS; loaded on the first Ion import only.
const require = createRequire(import.meta.url);
let ion: typeof IonJs | undefined;
const ionJs = () => (ion ??= require('ion-js') as typeof IonJs);

/** Every top-level value of an Ion text stream (lines of `$ion_1_0 {Item:{...}}`). */
export function loadIon(text: string): IonJs.dom.Value[] {
  return ionJs().loadAll(text);
}

/** An Ion value back to a DynamoDB attribute value. */
export function attributeOf(value: IonJs.dom.Value): Value {
  const { IonTypes } = ionJs();
  const annotations = value.getAnnotations();
  const type = value.getType();
  if (value.isNull()) return { NULL: true };
  if (annotations.includes('$dynamodb_SS'))
    return { SS: elementsOf(value).map((member) => member.stringValue()!) };
  if (annotations.includes('$dynamodb_NS'))
    return { NS: elementsOf(value).map((member) => numberOf(member)) };
  if (annotations.includes('$dynamodb_BS'))
    return {
      BS: elementsOf(value).map((member) => Buffer.from(member.uInt8ArrayValue()!).toString('base64')),
    };
  switch (type) {
    case IonTypes.STRING:
    case IonTypes.SYMBOL:
      return { S: value.stringValue()! };
    case IonTypes.BOOL:
      return { BOOL: value.booleanValue()! };
    case IonTypes.INT:
    case IonTypes.DECIMAL:
    case IonTypes.FLOAT:
      return { N: numberOf(value) };
    case IonTypes.BLOB:
    case IonTypes.CLOB:
      return { B: Buffer.from(value.uInt8ArrayValue()!).toString('base64') };
    case IonTypes.LIST:
    case IonTypes.SEXP:
      return { L: elementsOf(value).map(attributeOf) };
    case IonTypes.STRUCT:
      return { M: mapOf(value) };
    default:
      throw new TypeError(`Ion ${type.name} has no DynamoDB type`);
  }
}

/** An Ion struct's fields as an attribute map (names may be `__proto__`: a null-prototype object). */
export function mapOf(value: IonJs.dom.Value): Record<string, Value> {
  const map: Record<string, Value> = Object.create(null);
  for (const [name, field] of value.fields()) map[name] = attributeOf(field);
  return map;
}

function numberOf(value: IonJs.dom.Value): string {
  const { IonTypes } = ionJs();
  if (value.getType() === IonTypes.DECIMAL) {
    const decimal = value.decimalValue()!;
    const coefficient = decimal.getCoefficient();
    const exponent = decimal.getExponent();
    const negative = decimal.isNegative();
    const digits = (coefficient < 0n ? -coefficient : coefficient).toString();
    const sign = negative ? '-' : '';
    if (exponent >= 0) return `${sign}${digits}${'0'.repeat(exponent)}`;
    const point = digits.length + exponent;
    return point > 0
      ? `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
      : `${sign}0.${'0'.repeat(-point)}${digits}`;
  }
  if (value.getType() === IonTypes.INT) return value.bigIntValue()!.toString();
  return String(value.numberValue());
}

function elementsOf(value: IonJs.dom.Value): IonJs.dom.Value[] {
  return value.elements();
}
