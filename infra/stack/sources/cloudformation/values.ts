import type { TemplateResolver } from './intrinsics.js';
import { isObject } from './shapes.js';
import type { TemplatePath } from './templateFile.js';

/**
 * Typed reads of resolved template values. CloudFormation takes numbers and booleans written as
 * strings too (`Timeout: "30"`, a `Number` parameter's `Ref`), so these accept both.
 */
export class Values {
  constructor(private readonly resolver: TemplateResolver) {}

  fail(path: TemplatePath, reason: string): never {
    return this.resolver.fail(path, reason);
  }

  string(value: unknown, path: TemplatePath): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return this.fail(path, 'must be a string');
  }

  number(value: unknown, path: TemplatePath): number | undefined {
    if (value === undefined) return undefined;
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) return this.fail(path, 'must be a number');
    return number;
  }

  boolean(value: unknown, path: TemplatePath): boolean | undefined {
    if (value === undefined) return undefined;
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    return this.fail(path, 'must be true or false');
  }

  object(value: unknown, path: TemplatePath): Record<string, unknown> | undefined {
    if (value === undefined) return undefined;
    if (!isObject(value)) return this.fail(path, 'must be a map');
    return value;
  }

  list(value: unknown, path: TemplatePath): unknown[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return this.fail(path, 'must be a list');
    return value;
  }

  /** A map of strings (environment variables): numbers and booleans become text, as Lambda takes them. */
  stringMap(value: unknown, path: TemplatePath): Record<string, string> | undefined {
    const map = this.object(value, path);
    if (map === undefined) return undefined;
    const result: Record<string, string> = {};
    for (const [key, item] of Object.entries(map)) {
      const text = this.string(item, [...path, key]);
      if (text !== undefined)
        Object.defineProperty(result, key, { value: text, enumerable: true, writable: true });
    }
    return result;
  }
}

/** The object without its `undefined` members. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
