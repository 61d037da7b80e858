import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/**
 * Terraform's built-in functions that a configuration's names, settings and filter patterns use
 * (https://developer.hashicorp.com/terraform/language/functions). Others are refused by name.
 */
type Fn = (args: readonly unknown[], directory: string) => unknown;

const text = (value: unknown, name: string): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`${name}(): ${JSON.stringify(value)} is not text`);
};
const list = (value: unknown, name: string): unknown[] => {
  if (Array.isArray(value)) return value;
  throw new Error(`${name}(): ${JSON.stringify(value)} is not a list`);
};
const map = (value: unknown, name: string): Record<string, unknown> => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw new Error(`${name}(): ${JSON.stringify(value)} is not a map`);
};

const FUNCTIONS: Readonly<Record<string, Fn>> = {
  // Terraform writes object keys in lexical order.
  jsonencode: ([value]) => JSON.stringify(sortedKeys(value)),
  jsondecode: ([value]) => JSON.parse(text(value, 'jsondecode')),
  merge: (args) => Object.assign({}, ...args.map((item) => map(item ?? {}, 'merge'))),
  concat: (args) => args.flatMap((item) => list(item, 'concat')),
  lookup: ([value, key, fallback]) => {
    const members = map(value, 'lookup');
    const name = text(key, 'lookup');
    if (Object.hasOwn(members, name)) return members[name];
    if (fallback === undefined) throw new Error(`lookup(): no '${name}' and no default`);
    return fallback;
  },
  lower: ([value]) => text(value, 'lower').toLowerCase(),
  upper: ([value]) => text(value, 'upper').toUpperCase(),
  title: ([value]) => text(value, 'title').replace(/\b\w/g, (char) => char.toUpperCase()),
  trimspace: ([value]) => text(value, 'trimspace').trim(),
  replace: ([value, search, replacement]) =>
    text(value, 'replace').replaceAll(text(search, 'replace'), text(replacement, 'replace')),
  join: ([separator, items]) =>
    list(items, 'join')
      .map((item) => text(item, 'join'))
      .join(text(separator, 'join')),
  split: ([separator, value]) => text(value, 'split').split(text(separator, 'split')),
  format: ([pattern, ...args]) => {
    let index = 0;
    return text(pattern, 'format').replace(/%([%sdvq])/g, (_match, verb: string) => {
      if (verb === '%') return '%';
      const value = args[index++];
      return verb === 'q'
        ? JSON.stringify(value)
        : verb === 'v' && typeof value !== 'string'
          ? JSON.stringify(value)
          : text(value, 'format');
    });
  },
  tostring: ([value]) => (value === null ? null : text(value, 'tostring')),
  tonumber: ([value]) => {
    const number = Number(value);
    if (value === null) return null;
    if (Number.isNaN(number) || (typeof value === 'string' && value.trim() === ''))
      throw new Error(`tonumber(): ${JSON.stringify(value)} is not a number`);
    return number;
  },
  tobool: ([value]) => {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    if (value === null) return null;
    throw new Error(`tobool(): ${JSON.stringify(value)} is not a bool`);
  },
  tolist: ([value]) => list(value, 'tolist'),
  toset: ([value]) => [...new Set(list(value, 'toset'))],
  tomap: ([value]) => map(value, 'tomap'),
  length: ([value]) =>
    typeof value === 'string'
      ? value.length
      : Array.isArray(value)
        ? value.length
        : Object.keys(map(value, 'length')).length,
  element: ([items, index]) => {
    const values = list(items, 'element');
    return values[Number(index) % values.length];
  },
  contains: ([items, value]) =>
    list(items, 'contains').some((item) => JSON.stringify(item) === JSON.stringify(value)),
  keys: ([value]) => Object.keys(map(value, 'keys')).sort(),
  values: ([value]) => {
    const members = map(value, 'values');
    return Object.keys(members)
      .sort()
      .map((key) => members[key]);
  },
  coalesce: (args) => {
    const found = args.find((item) => item !== null && item !== undefined && item !== '');
    if (found === undefined) throw new Error('coalesce(): every argument is null or empty');
    return found;
  },
  min: (args) => Math.min(...args.map(Number)),
  max: (args) => Math.max(...args.map(Number)),
  abs: ([value]) => Math.abs(Number(value)),
  file: ([path], directory) => readFileSync(resolve(directory, text(path, 'file')), 'utf8'),
  abspath: ([path], directory) => resolve(directory, text(path, 'abspath')),
  basename: ([path]) => basename(text(path, 'basename')),
  dirname: ([path]) => dirname(text(path, 'dirname')),
};

export function callFunction(name: string, args: readonly unknown[], directory: string): unknown {
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (fn === undefined) throw new Error(`the function ${name}() is not evaluated by eddy`);
  return fn(args, directory);
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      Object.defineProperty(result, key, {
        value: sortedKeys((value as Record<string, unknown>)[key]),
        enumerable: true,
      });
    return result;
  }
  return value;
}
