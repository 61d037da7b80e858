import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { CollectionTag } from 'yaml';
import { isMap, isSeq, LineCounter, type Node, parseDocument, type ScalarTag } from 'yaml';
import { TemplateError } from '../stackDefinition.js';

/**
 * A CloudFormation template file, parsed: YAML (with CloudFormation's short tags) or JSON, and a
 * way back from a path inside it to where it is written, for messages.
 *
 * The short tags (`!Ref X`, `!GetAtt A.B`, `!Sub '...'`, `!If [...]`...) are a YAML schema: each tag
 * resolves to the long form CloudFormation defines for it (`{ Ref: X }`, `{ 'Fn::GetAtt': [A, B] }`,
 * `{ 'Fn::Sub': '...' }`), so the rest of eddy sees one shape whichever way the template is written.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 */
export interface TemplateFile {
  readonly file: string;
  readonly format: 'yaml' | 'json';
  /** The template as plain data, intrinsics in their long forms. */
  readonly template: unknown;
  /**
   * Where a path inside the template is written, to follow the file name in a message:
   * `:line:column (Resources.Orders.Properties)` for YAML, `#/Resources/Orders/Properties` for JSON.
   */
  locate(path: TemplatePath): string;
}

export type TemplatePath = readonly (string | number)[];

/** Function names of the short tags: `!Name` stands for `Fn::Name` (and `!Ref`, `!Condition` for themselves). */
const FUNCTIONS = [
  'And',
  'Base64',
  'Cidr',
  'Equals',
  'FindInMap',
  'ForEach',
  'GetAZs',
  'If',
  'ImportValue',
  'Join',
  'Length',
  'Not',
  'Or',
  'Select',
  'Split',
  'Sub',
  'ToJsonString',
  'Transform',
] as const;

/** The long form of `!GetAtt` written as a scalar: `Resource.Attribute` (the attribute may hold dots). */
function getAttOf(text: string): readonly string[] {
  const dot = text.indexOf('.');
  return dot < 0 ? [text] : [text.slice(0, dot), text.slice(dot + 1)];
}

/** The schema's custom tags: each short tag on a scalar, a sequence and a mapping. */
function cloudFormationTags(): (ScalarTag | CollectionTag)[] {
  const tags: (ScalarTag | CollectionTag)[] = [];
  const add = (tag: string, key: string, scalar: (text: string) => unknown = (text) => text) => {
    tags.push({ tag, resolve: (text: string) => ({ [key]: scalar(text) }) } as ScalarTag);
    for (const collection of ['seq', 'map'] as const) {
      tags.push({
        tag,
        collection,
        // The collection's items are resolved already (nested tags included): its plain data.
        resolve: (node: Node) => ({ [key]: node.toJSON() }),
      } as unknown as CollectionTag);
    }
  };
  add('!Ref', 'Ref');
  add('!Condition', 'Condition');
  add('!GetAtt', 'Fn::GetAtt', getAttOf);
  for (const name of FUNCTIONS) add(`!${name}`, `Fn::${name}`);
  return tags;
}

const TAGS = cloudFormationTags();

/**
 * Reads and parses a template file.
 * @throws TemplateError with the line and column of a YAML or JSON syntax error.
 */
export function readTemplateFile(file: string): TemplateFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TemplateError(file, '', `cannot be read: ${(error as Error).message}`, { cause: error });
  }
  return extname(file).toLowerCase() === '.json'
    ? parseJsonTemplate(file, text)
    : parseYamlTemplate(file, text);
}

export function parseYamlTemplate(file: string, text: string): TemplateFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    customTags: TAGS,
    lineCounter,
    prettyErrors: false,
    // Anchors are YAML's; a template that expands to more than this is not a template.
    uniqueKeys: true,
  });
  const error = document.errors[0];
  if (error !== undefined) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new TemplateError(file, `:${line}:${col}`, `not valid YAML: ${firstLine(error.message)}`, {
      cause: error,
    });
  }
  const template = document.toJS({ maxAliasCount: 1000 }) as unknown;
  return {
    file,
    format: 'yaml',
    template,
    locate(path) {
      // The deepest node of the path that is written as such (an intrinsic's insides are data).
      let node: unknown = document.contents;
      let found = node as Node | null;
      for (const key of path) {
        if (isMap(node)) node = node.get(key, true);
        else if (isSeq(node) && typeof key === 'number') node = node.get(key, true);
        else break;
        if (node === undefined || node === null) break;
        found = node as Node;
      }
      const { line, col } = lineCounter.linePos(found?.range?.[0] ?? 0);
      return path.length === 0 ? `:${line}:${col}` : `:${line}:${col} (${dottedPath(path)})`;
    },
  };
}

export function parseJsonTemplate(file: string, text: string): TemplateFile {
  let template: unknown;
  try {
    template = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const where = position === undefined ? '' : `:${lineColumnOf(text, Number(position))}`;
    throw new TemplateError(file, where, `not valid JSON: ${message}`, { cause: error });
  }
  return { file, format: 'json', template, locate: (path) => `#${jsonPointer(path)}` };
}

/** RFC 6901: `/Resources/Orders/Properties`, `~` and `/` escaped. */
export function jsonPointer(path: TemplatePath): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** `Resources.Orders.Properties.GlobalSecondaryIndexes[0]`. */
export function dottedPath(path: TemplatePath): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`))
    .join('');
}

function lineColumnOf(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${line}:${column}`;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
