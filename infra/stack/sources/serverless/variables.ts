import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { isObject } from '../cloudformation/shapes.js';
import { parseJsonTemplate, parseYamlTemplate, type TemplatePath } from '../cloudformation/templateFile.js';

/**
 * The Serverless Framework's variables in a `serverless.yml` (docs/serverless.md §2):
 * `${self:path.to.value}`, `${opt:stage}`, `${env:NAME}`, `${sls:stage}`, `${aws:region}`,
 * `${aws:accountId}`, `${file(./other.yml):path}` and `${strToBool(...)}`, each with fallbacks
 * (`${opt:stage, 'dev'}`, `${env:A, env:B, 42}`), nested (`${self:custom.${opt:stage}.table}`) and
 * inside text (`orders-${sls:stage}`).
 * https://www.serverless.com/framework/docs/providers/aws/guide/variables
 *
 * A value that is one variable keeps its type (`batchSize: ${self:custom.batch}` is a number);
 * variables inside text are written into it. `${...}` that names no source (`${AWS::Region}` and
 * `${Orders}` in a `Fn::Sub`) is CloudFormation's and left as it is.
 *
 * Resolution is lazy and memoized by path: `${self:a}` resolves `a` (and only the text variables
 * on the way to it), so a value refers to any other. A value that comes back to itself is a cycle,
 * reported with its chain; nesting deeper than MAX_DEPTH is refused rather than followed (a chain
 * of file() references, a variable whose value is a variable...), so no input recurses unbounded.
 */
export interface VariableOptions {
  /** The service's folder: where `file(...)` paths start. */
  readonly directory: string;
  /** `--stage`, which is `${opt:stage}`. */
  readonly stage?: string;
  /** `--region`, which is `${opt:region}`. */
  readonly region?: string;
  readonly accountId: string;
  /** Environment variables (`${env:...}`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Throws the loader's error for a path of serverless.yml. */
  readonly fail: (path: TemplatePath, reason: string) => never;
  /** Something resolved locally in a way AWS would not (a fallback used for `${ssm:...}`). */
  readonly notice: (line: string) => void;
}

/** Nested resolutions followed at most (the Framework has no such limit: it would loop or crash). */
const MAX_DEPTH = 64;

/** Sources the Framework reads from AWS or its dashboard: eddy has no value for them (fallbacks are used). */
const REMOTE_SOURCES = new Set(['ssm', 'cf', 's3', 'param', 'secretsmanager', 'git', 'terraform', 'vault']);

/** `source:` (not `AWS::`), or `file(` / `strToBool(`: the start of a variable. */
const VARIABLE_START = /^\s*(?:([A-Za-z][A-Za-z0-9]*):(?!:)|(file|strToBool)\()/;

export class ServerlessVariables {
  private readonly memo = new Map<string, unknown>();
  /** The files `file(...)` read (`eddy serve --watch` watches them too). */
  readonly files = new Set<string>();
  private readonly inProgress: string[] = [];
  private depth = 0;

  constructor(
    private readonly root: unknown,
    private readonly options: VariableOptions,
  ) {}

  /** The whole document, every variable resolved. */
  resolveAll(): unknown {
    return this.resolveNode([]);
  }

  /** The resolved value at a path of the document (undefined when there is none). */
  valueAt(path: readonly string[]): unknown {
    return this.lookup(path, []);
  }

  /** The stage: `--stage`, else `provider.stage`, else `dev` (the Framework's default). */
  stage(): string {
    if (this.options.stage !== undefined) return this.options.stage;
    const stage = this.lookup(['provider', 'stage'], ['provider', 'stage']);
    return stage === undefined || stage === null ? 'dev' : String(stage);
  }

  /** The region: `--region`, else `provider.region`, else us-east-1 (the Framework's default). */
  region(): string {
    if (this.options.region !== undefined) return this.options.region;
    const region = this.lookup(['provider', 'region'], ['provider', 'region']);
    return region === undefined || region === null ? 'us-east-1' : String(region);
  }

  private resolveNode(path: TemplatePath): unknown {
    const key = JSON.stringify(path);
    if (this.memo.has(key)) return this.memo.get(key);
    if (this.inProgress.includes(key)) {
      const chain = [...this.inProgress.slice(this.inProgress.indexOf(key)), key]
        .map((item) => (JSON.parse(item) as string[]).join('.') || '(the whole file)')
        .join(' → ');
      return this.options.fail(path, `the variables refer to each other in a cycle: ${chain}`);
    }
    this.inProgress.push(key);
    try {
      const raw = rawAt(this.root, path);
      const value = this.resolveValue(raw, path, (child) => this.resolveNode([...path, ...child]));
      this.memo.set(key, value);
      return value;
    } finally {
      this.inProgress.pop();
    }
  }

  /**
   * A value with its variables resolved: text through `resolveText`, containers member by member
   * (through `child`, memoized for the document, direct for a file's content).
   */
  private resolveValue(raw: unknown, path: TemplatePath, child: (keys: TemplatePath) => unknown): unknown {
    if (typeof raw === 'string') return this.resolveText(raw, path);
    if (Array.isArray(raw)) return raw.map((_item, index) => child([index]));
    if (isObject(raw)) {
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(raw))
        Object.defineProperty(result, key, { value: child([key]), enumerable: true, writable: true });
      return result;
    }
    return raw;
  }

  /**
   * The value at `address` of the document: containers on the way are walked as written, text on
   * the way (a variable that gives the container) is resolved first.
   */
  private lookup(address: readonly string[], from: TemplatePath): unknown {
    let node: unknown = this.root;
    const walked: (string | number)[] = [];
    for (let index = 0; index < address.length; index++) {
      if (typeof node === 'string') return this.descend(this.resolveNode(walked), address.slice(index), from);
      const key = address[index]!;
      if (Array.isArray(node) && /^\d+$/.test(key)) {
        node = node[Number(key)];
        walked.push(Number(key));
      } else if (isObject(node) && Object.hasOwn(node, key)) {
        node = node[key];
        walked.push(key);
      } else return undefined;
    }
    return this.resolveNode(walked);
  }

  /** Into a resolved value. */
  private descend(value: unknown, keys: readonly string[], _from: TemplatePath): unknown {
    let node = value;
    for (const key of keys) {
      if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
      else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
      else return undefined;
    }
    return node;
  }

  /** Text with its `${...}` resolved: the variable's own value when the text is one variable. */
  private resolveText(text: string, path: TemplatePath): unknown {
    if (!text.includes('${')) return text;
    const parts: unknown[] = [];
    let rest = text;
    let only: { value: unknown } | undefined;
    while (rest.length > 0) {
      const start = rest.indexOf('${');
      if (start < 0) {
        parts.push(rest);
        break;
      }
      const end = closingBrace(rest, start + 2);
      if (end < 0) return this.options.fail(path, `'${text}' has a \${ without its closing }`);
      const inner = rest.slice(start + 2, end);
      if (start > 0) parts.push(rest.slice(0, start));
      if (VARIABLE_START.test(inner)) {
        const value = this.variable(inner, path);
        if (start === 0 && end === rest.length - 1 && parts.length === 0) only = { value };
        parts.push({ variable: inner, value });
      } else parts.push(rest.slice(start, end + 1));
      rest = rest.slice(end + 1);
    }
    if (only !== undefined && parts.length === 1) return only.value;
    return parts
      .map((part) => {
        if (typeof part === 'string') return part;
        const { variable, value } = part as { variable: string; value: unknown };
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
          return String(value);
        return this.options.fail(
          path,
          `\${${variable}} is ${value === null ? 'null' : Array.isArray(value) ? 'a list' : 'a map'}, which cannot be written into text ('${text}')`,
        );
      })
      .join('');
  }

  /** One variable (what is between `${` and `}`): its sources tried in order, then its fallbacks. */
  private variable(inner: string, path: TemplatePath): unknown {
    if (++this.depth > MAX_DEPTH) {
      return this.options.fail(path, `variables nest deeper than ${MAX_DEPTH} levels (at \${${inner}})`);
    }
    try {
      const candidates = splitTopLevel(inner, ',');
      const skipped: string[] = [];
      for (const [index, candidate] of candidates.entries()) {
        const value = this.candidate(candidate.trim(), path, index === 0, skipped);
        if (value !== undefined && value !== null) {
          if (skipped.length > 0 && index > 0)
            this.options.notice(
              `${path.join('.')}: ${skipped.join(', ')} read from AWS, which eddy does not: the fallback is used`,
            );
          return value;
        }
      }
      if (skipped.length > 0)
        return this.options.fail(
          path,
          `\${${inner}}: ${skipped.join(', ')} is read from AWS, which eddy does not: give a fallback (\${${candidates[0]!.trim()}, 'local value'})`,
        );
      return this.options.fail(
        path,
        `\${${inner}} has no value${candidates.length > 1 ? ' (nor have its fallbacks)' : ''}: ${this.hint(candidates[0]!.trim())}`,
      );
    } finally {
      this.depth--;
    }
  }

  private hint(candidate: string): string {
    const source = /^([A-Za-z]+)/.exec(candidate)?.[1];
    if (source === 'opt') return 'pass it (--stage, --region) or give a fallback';
    if (source === 'env') return 'set the environment variable or give a fallback';
    if (source === 'self') return 'the file has nothing at that path';
    return 'give a fallback';
  }

  /** A source (`opt:stage`, `${...}`) or a literal fallback (`'dev'`, `10`, `true`). */
  private candidate(text: string, path: TemplatePath, first: boolean, skipped: string[]): unknown {
    if (!first) {
      const quoted = /^(['"])(.*)\1$/s.exec(text);
      if (quoted !== null) return quoted[2];
      if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
      if (text === 'true' || text === 'false') return text === 'true';
      if (text === 'null') return null;
      if (text.startsWith('${')) return this.resolveText(text, path);
    }
    const address = this.resolveText(text, path);
    if (typeof address !== 'string') return this.options.fail(path, `'${text}' is not a variable source`);
    const call = /^(file|strToBool)\((.*)\)(?::(.*))?$/s.exec(address);
    if (call !== null) return this.call(call[1]!, call[2]!.trim(), call[3]?.trim(), path);
    const match = /^([A-Za-z][A-Za-z0-9]*):(.*)$/s.exec(address);
    if (match === null) {
      if (first) return this.options.fail(path, `'${text}' is not a variable (source:address)`);
      return this.options.fail(
        path,
        `the fallback '${text}' is neither quoted text, a number nor a variable`,
      );
    }
    const [, source, rest] = match as unknown as [string, string, string];
    const name = rest.trim();
    switch (source) {
      case 'self':
        return this.lookup(name === '' ? [] : name.split('.'), path);
      case 'opt':
        return name === 'stage' ? this.options.stage : name === 'region' ? this.options.region : undefined;
      case 'env':
        return this.options.env[name];
      case 'sls':
        if (name === 'stage') return this.stage();
        return this.options.fail(path, `\${sls:${name}}: eddy knows sls:stage only`);
      case 'aws':
        if (name === 'region') return this.region();
        if (name === 'accountId') return this.options.accountId;
        return this.options.fail(path, `\${aws:${name}}: eddy knows aws:region and aws:accountId`);
      default:
        if (REMOTE_SOURCES.has(source)) {
          skipped.push(`\${${source}:${name}}`);
          return undefined;
        }
        return this.options.fail(path, `'${source}' is not a variable source of the Serverless Framework`);
    }
  }

  /** `file(./path.yml):address` and `strToBool(text)`. */
  private call(name: string, argument: string, address: string | undefined, path: TemplatePath): unknown {
    const text = /^(['"])(.*)\1$/s.exec(argument)?.[2] ?? argument;
    if (name === 'strToBool') {
      if (/^(true|1)$/i.test(text.trim())) return true;
      if (/^(false|0)$/i.test(text.trim())) return false;
      return this.options.fail(path, `strToBool(${argument}): not true, false, 1 or 0`);
    }
    const file = resolve(this.options.directory, text);
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
      this.files.add(file);
    } catch {
      // The Framework resolves a missing file to nothing, so that a fallback can stand in.
      return undefined;
    }
    const extension = extname(file).toLowerCase();
    if (extension !== '.yml' && extension !== '.yaml' && extension !== '.json')
      return this.options.fail(
        path,
        `file(${text}): eddy reads YAML and JSON files (not ${extension || 'this'})`,
      );
    const parsed =
      extension === '.json' ? parseJsonTemplate(file, content) : parseYamlTemplate(file, content);
    // The file's own variables: `self` is still serverless.yml, as in the Framework.
    const resolveIn = (value: unknown, at: TemplatePath): unknown =>
      this.resolveValue(value, path, (keys) => {
        const next = [...at, ...keys];
        return resolveIn(rawAt(value, keys), next);
      });
    if (++this.depth > MAX_DEPTH) {
      return this.options.fail(path, `file() references nest deeper than ${MAX_DEPTH} levels`);
    }
    try {
      const whole = resolveIn(parsed.template, []);
      return address === undefined || address === '' ? whole : this.descend(whole, address.split('.'), path);
    } finally {
      this.depth--;
    }
  }
}

/** The raw value at a path (no variables resolved). */
function rawAt(root: unknown, path: TemplatePath): unknown {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isObject(node) && Object.hasOwn(node, String(key))) node = node[String(key)];
    else return undefined;
  }
  return node;
}

/** Where the `}` closing a `${` whose insides start at `from` is (nested `${}` and quotes skipped), or -1. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = from; index < text.length; index++) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '{') depth++;
    else if (char === '}') {
      if (depth === 0) return index;
      depth--;
    }
  }
  return -1;
}

/** Splits at `separator` outside quotes, parentheses and `${...}`. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '{' || char === '(') depth++;
    else if (char === '}' || char === ')') depth--;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
