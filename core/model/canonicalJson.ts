/** A piece of output text waiting on the work stack (JSON.parse never makes one of these). */
class Literal {
  constructor(readonly text: string) {}
}

const OPEN_ARRAY = '[';
const OPEN_OBJECT = '{';
const CLOSE_ARRAY = new Literal(']');
const CLOSE_OBJECT = new Literal('}');
const COMMA = new Literal(',');

/**
 * JSON text of a parsed request value with object keys sorted (UTF-16 code unit order) at every
 * level: two requests that differ only in member order give the same text, and the text is as
 * long as `JSON.stringify`'s.
 *
 * It walks with its own stack rather than recursing, because the value is request data: any
 * member the operation ignores may hold arrays nested millions deep (a 16 MiB body of `[`),
 * which would overflow the call stack of a recursive walk or of `JSON.stringify`.
 *
 * @example
 * ```ts
 * canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' }); // '{"a":"x","b":[1,{"c":3,"d":2}]}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next instanceof Literal) {
      parts.push(next.text);
    } else if (Array.isArray(next)) {
      parts.push(OPEN_ARRAY);
      pending.push(CLOSE_ARRAY);
      for (let i = next.length - 1; i >= 0; i--) {
        pending.push(next[i]);
        if (i > 0) pending.push(COMMA);
      }
    } else if (typeof next === 'object' && next !== null) {
      parts.push(OPEN_OBJECT);
      pending.push(CLOSE_OBJECT);
      const record = next as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        pending.push(record[key], new Literal(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`));
      }
    } else {
      parts.push(String(JSON.stringify(next)));
    }
  }
  return parts.join('');
}
