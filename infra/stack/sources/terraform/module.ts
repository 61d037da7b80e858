import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isObject } from '../cloudformation/shapes.js';
import { TemplateError } from '../stackDefinition.js';
import { computedAttribute } from './attributes.js';
import {
  type ExpressionContext,
  ExpressionError,
  evaluateValue,
  indexInto,
  type Traversal,
} from './expressions.js';
import { fromJsonSyntax } from './jsonSyntax.js';
import { locateIn } from './places.js';
import { typedValue } from './variableTypes.js';

/**
 * One Terraform module: the `*.tf` files of a folder, parsed with `@cdktf/hcl2json` (HashiCorp's
 * HCL parser built to WebAssembly), and the evaluation of its expressions (docs/terraform.md §3):
 * variables, locals, references between resources, data sources, local modules' outputs.
 *
 * Evaluation is lazy and memoized: only what eddy reads is evaluated (an IAM policy document that
 * calls functions eddy does not have is never looked at). A value that refers back to itself is a
 * cycle, reported with its chain; chains longer than MAX_CHAIN are refused.
 * https://developer.hashicorp.com/terraform/language/expressions/references
 */
export interface Block {
  /** The .tf file it is written in. */
  readonly file: string;
  /** `resource.aws_dynamodb_table.orders`, `data.archive_file.orders`, `variable.stage`... */
  readonly address: readonly string[];
  readonly body: Readonly<Record<string, unknown>>;
}

export interface ModuleSettings {
  readonly region: string;
  readonly accountId: string;
  /** The root module's folder (`path.root`) and the working folder (`path.cwd`). */
  readonly root: string;
  readonly cwd: string;
}

const MAX_CHAIN = 200;
const MAX_MODULE_DEPTH = 16;

type Parse = (file: string, text: string) => Promise<Record<string, unknown>>;

export class TerraformModule {
  readonly resources = new Map<string, Block>();
  readonly data = new Map<string, Block>();
  readonly variables = new Map<string, Block>();
  readonly locals = new Map<string, { file: string; value: unknown }>();
  readonly modules = new Map<string, { block: Block; child: TerraformModule }>();
  readonly outputs = new Map<string, Block>();
  readonly providers: Block[] = [];
  /** The .tf files read (for `--watch`). */
  readonly files: string[] = [];
  private readonly texts = new Map<string, string>();
  private readonly memo = new Map<string, unknown>();
  private readonly chain: string[] = [];
  /** Values of this module's variables: the root's from tfvars and `--var`, a child's from its module block. */
  private inputs: (name: string) => { value: unknown } | undefined = () => undefined;

  private constructor(
    readonly directory: string,
    readonly settings: ModuleSettings,
    /** `module.orders.` for a child, empty for the root (in messages). */
    readonly prefix: string,
  ) {}

  /** Reads the module in `directory` and the local modules it calls. */
  static async read(
    directory: string,
    settings: ModuleSettings,
    parse: Parse,
    prefix = '',
    depth = 0,
  ): Promise<TerraformModule> {
    const module = new TerraformModule(directory, settings, prefix);
    const names = readdirSync(directory)
      .filter((name) => name.endsWith('.tf') || name.endsWith('.tf.json'))
      .sort();
    if (names.length === 0)
      throw new TemplateError(directory, '', 'no *.tf or *.tf.json file in this folder');
    for (const name of names) {
      const file = join(directory, name);
      const text = readFileSync(file, 'utf8');
      module.texts.set(file, text);
      module.files.push(file);
      let parsed: Record<string, unknown>;
      const json = name.endsWith('.tf.json');
      try {
        if (json) {
          const value: unknown = JSON.parse(text);
          if (typeof value !== 'object' || value === null || Array.isArray(value))
            throw new Error('a .tf.json file holds one JSON object');
          parsed = fromJsonSyntax(value as Record<string, unknown>);
        } else parsed = await parse(file, text);
      } catch (error) {
        throw new TemplateError(
          file,
          '',
          `not valid ${json ? 'JSON' : 'HCL'}: ${String((error as Error).message ?? error).trim()}`,
          {
            cause: error,
          },
        );
      }
      module.add(file, parsed);
    }
    for (const [name, entry] of [...module.modules]) {
      const source =
        typeof entry.block.body.source === 'string'
          ? entry.block.body.source
          : module.fail(
              entry.block,
              ['source'],
              'source is required (a literal path such as "./modules/orders")',
            );
      if (!/^\.\.?\//.test(source))
        module.fail(
          entry.block,
          ['source'],
          `'${source}' is a module from a registry or repository, which eddy does not download: vendor it into a local folder (source = "./modules/...") or run \`terraform get\` and point source at the copy`,
        );
      const childDirectory = resolve(directory, source);
      if (!existsSync(childDirectory) || !statSync(childDirectory).isDirectory())
        module.fail(entry.block, ['source'], `the module folder ${childDirectory} does not exist`);
      if (depth >= MAX_MODULE_DEPTH)
        module.fail(entry.block, ['source'], `modules nest deeper than ${MAX_MODULE_DEPTH} levels`);
      const child = await TerraformModule.read(
        childDirectory,
        settings,
        parse,
        `${prefix}module.${name}.`,
        depth + 1,
      );
      child.inputs = (variable) =>
        Object.hasOwn(entry.block.body, variable)
          ? { value: module.evaluateAt(entry.block, [variable]) }
          : undefined;
      module.modules.set(name, { block: entry.block, child });
    }
    return module;
  }

  /** Sets the root module's variable values (tfvars, `--var`), text where a type asks for more converted. */
  setInputs(values: ReadonlyMap<string, { value: unknown; fromText: boolean }>, origin: string): void {
    for (const name of values.keys())
      if (!this.variables.has(name))
        throw new TemplateError(
          origin,
          '',
          `a value for undeclared variable '${name}' (variables: ${[...this.variables.keys()].join(', ') || 'none'})`,
        );
    this.inputs = (name) => {
      const input = values.get(name);
      if (input === undefined) return undefined;
      const block = this.variables.get(name)!;
      return { value: input.fromText ? this.typed(block, input.value as string) : input.value };
    };
  }

  /** Every module below this one (children first), with this one last. */
  allModules(): TerraformModule[] {
    return [...[...this.modules.values()].flatMap(({ child }) => child.allModules()), this];
  }

  private add(file: string, parsed: Record<string, unknown>): void {
    const named = (kind: string, target: Map<string, Block>) => {
      const section = parsed[kind];
      if (!isObject(section)) return;
      for (const [name, bodies] of Object.entries(section)) {
        const block: Block = { file, address: [kind, name], body: first(bodies) };
        if (target.has(name)) this.fail(block, [], `a second ${kind} named '${name}'`);
        target.set(name, block);
      }
    };
    const typed = (kind: string, target: Map<string, Block>) => {
      const section = parsed[kind];
      if (!isObject(section)) return;
      for (const [type, byName] of Object.entries(section)) {
        if (!isObject(byName)) continue;
        for (const [name, bodies] of Object.entries(byName)) {
          const block: Block = { file, address: [kind, type, name], body: first(bodies) };
          if (target.has(`${type}.${name}`)) this.fail(block, [], `a second ${kind} ${type}.${name}`);
          target.set(`${type}.${name}`, block);
        }
      }
    };
    typed('resource', this.resources);
    typed('data', this.data);
    named('variable', this.variables);
    named('output', this.outputs);
    const modules = new Map<string, Block>();
    named('module', modules);
    for (const [name, block] of modules) this.modules.set(name, { block, child: undefined as never });
    for (const locals of Array.isArray(parsed.locals) ? parsed.locals : []) {
      if (!isObject(locals)) continue;
      for (const [name, value] of Object.entries(locals)) {
        if (this.locals.has(name))
          this.fail({ file, address: ['locals'], body: {} }, [name], `a second local named '${name}'`);
        this.locals.set(name, { file, value });
      }
    }
    const providers = parsed.provider;
    if (isObject(providers))
      for (const [name, bodies] of Object.entries(providers))
        for (const body of Array.isArray(bodies) ? bodies : [])
          if (isObject(body)) this.providers.push({ file, address: ['provider', name], body });
  }

  /** The value of an argument (or a nested block's, `['ttl', 0, 'enabled']`) of a block. */
  evaluateAt(block: Block, path: readonly (string | number)[]): unknown {
    const raw = rawAt(block.body, path);
    if (raw === undefined) return undefined;
    const key = `${block.address.join('.')}:${path.join('.')}`;
    return this.memoized(key, block, path, () => evaluateValue(raw, this.context(block, path)));
  }

  /** Whether a resource is created: `count = 0` is not; `for_each` is refused (addresses would be keys). */
  isCreated(block: Block): boolean {
    if (block.body.for_each !== undefined)
      this.fail(
        block,
        ['for_each'],
        'for_each is not evaluated by eddy: write one block per table or function',
      );
    const count = block.body.count === undefined ? 1 : this.evaluateAt(block, ['count']);
    if (count === 0 || count === '0') return false;
    if (count === 1 || count === '1') return true;
    return this.fail(block, ['count'], `count = ${JSON.stringify(count)}: eddy creates 0 or 1 of a resource`);
  }

  fail(block: Block, path: readonly (string | number)[], reason: string, cause?: unknown): never {
    throw new TemplateError(
      block.file,
      this.locate(block, path),
      reason,
      cause === undefined ? undefined : { cause },
    );
  }

  /** `:12 (resource.aws_dynamodb_table.orders.hash_key)`: where a block's argument is written. */
  locate(block: Block, path: readonly (string | number)[]): string {
    return locateIn(this.texts.get(block.file) ?? '', block, path, this.prefix);
  }

  private memoized(
    key: string,
    block: Block,
    path: readonly (string | number)[],
    compute: () => unknown,
  ): unknown {
    if (this.memo.has(key)) return this.memo.get(key);
    if (this.chain.includes(key))
      this.fail(
        block,
        path,
        `the references form a cycle: ${[...this.chain.slice(this.chain.indexOf(key)), key].join(' → ')}`,
      );
    if (this.chain.length >= MAX_CHAIN) this.fail(block, path, `references chain deeper than ${MAX_CHAIN}`);
    this.chain.push(key);
    try {
      const value = compute();
      this.memo.set(key, value);
      return value;
    } catch (error) {
      if (error instanceof ExpressionError) this.fail(block, path, error.message, error);
      throw error;
    } finally {
      this.chain.pop();
    }
  }

  private context(block: Block, path: readonly (string | number)[]): ExpressionContext {
    return {
      directory: this.directory,
      reference: (root, traversal) => this.reference(root, traversal, block, path),
    };
  }

  private reference(
    root: string,
    traversal: readonly Traversal[],
    block: Block,
    path: readonly (string | number)[],
  ): unknown {
    const names = traversal.map((step) => ('name' in step ? step.name : undefined));
    const rest = (from: number, value: unknown) => follow(value, traversal.slice(from));
    switch (root) {
      case 'var':
        return rest(1, this.variable(need(names[0], 'var.<name>'), block, path));
      case 'local':
        return rest(1, this.local(need(names[0], 'local.<name>')));
      case 'path': {
        const which = need(names[0], 'path.module');
        if (which === 'module') return this.directory;
        if (which === 'root') return this.settings.root;
        if (which === 'cwd') return this.settings.cwd;
        throw new ExpressionError(`path.${which} is not a path Terraform has`);
      }
      case 'terraform':
        if (names[0] === 'workspace') return 'default';
        throw new ExpressionError(`terraform.${names[0]} is not evaluated by eddy`);
      case 'count':
        if (names[0] === 'index') return 0;
        throw new ExpressionError(`count.${names[0]} is not a value`);
      case 'each':
        throw new ExpressionError('each.key and each.value are not evaluated by eddy (for_each)');
      case 'data': {
        const type = need(names[0], 'data.<type>.<name>');
        const name = need(names[1], 'data.<type>.<name>');
        const data = this.data.get(`${type}.${name}`);
        if (data === undefined) throw new ExpressionError(`no data "${type}" "${name}" in this module`);
        return this.attributeOf(data, traversal.slice(2));
      }
      case 'module': {
        const name = need(names[0], 'module.<name>.<output>');
        const entry = this.modules.get(name);
        if (entry === undefined) throw new ExpressionError(`no module "${name}" in this module`);
        const output = need(names[1], 'module.<name>.<output>');
        const block = entry.child.outputs.get(output);
        if (block === undefined) throw new ExpressionError(`module "${name}" has no output "${output}"`);
        return rest(2, entry.child.evaluateAt(block, ['value']));
      }
      default: {
        const name = need(names[0], `${root}.<name>`);
        const resource = this.resources.get(`${root}.${name}`);
        if (resource === undefined)
          throw new ExpressionError(`'${root}.${name}' is not a resource, variable or local of this module`);
        // `aws_x.y[0]` on a resource with `count`: the one eddy creates.
        const after = traversal.slice(1);
        const steps =
          after[0] !== undefined && 'index' in after[0] && after[0].index === 0 ? after.slice(1) : after;
        return this.attributeOf(resource, steps);
      }
    }
  }

  /** A resource's attribute, as `<type>.<name>.<attribute>` reads it. */
  attribute(block: Block, name: string): unknown {
    return this.attributeOf(block, [{ name }]);
  }

  /** A resource's or data source's attribute: computed (arn, stream_arn...) or the argument's value. */
  private attributeOf(block: Block, traversal: readonly Traversal[]): unknown {
    const first = traversal[0];
    if (first === undefined || !('name' in first)) {
      const body: Record<string, unknown> = {};
      for (const key of Object.keys(block.body))
        Object.defineProperty(body, key, { value: this.evaluateAt(block, [key]), enumerable: true });
      return follow(body, traversal);
    }
    const attribute = first.name;
    const computed = computedAttribute(block, attribute, {
      argument: (name) => this.evaluateAt(block, [name]),
      region: this.settings.region,
      accountId: this.settings.accountId,
    });
    const value = computed !== undefined ? computed.value : this.evaluateAt(block, [attribute]);
    if (value === undefined) {
      // What only the provider knows after apply (an id, a hash): a placeholder naming it.
      return follow(`${block.address.slice(1).join('.')}.${attribute}`, traversal.slice(1));
    }
    return follow(value, traversal.slice(1));
  }

  private variable(name: string, from: Block, path: readonly (string | number)[]): unknown {
    const block = this.variables.get(name);
    if (block === undefined) throw new ExpressionError(`no variable "${name}" in this module`);
    return this.memoized(`var.${name}`, from, path, () => {
      const input = this.inputs(name);
      if (input !== undefined) return input.value;
      if (Object.hasOwn(block.body, 'default')) return this.evaluateAt(block, ['default']);
      return this.fail(
        block,
        [],
        this.prefix === ''
          ? `variable '${name}' has no value: give it a default, pass --var ${name}=..., or set it in terraform.tfvars`
          : `variable '${name}' has no value: the module block must set it`,
      );
    });
  }

  private local(name: string): unknown {
    const local = this.locals.get(name);
    if (local === undefined) throw new ExpressionError(`no local "${name}" in this module`);
    const block: Block = { file: local.file, address: ['locals'], body: { [name]: local.value } };
    return this.evaluateAt(block, [name]);
  }

  /** A `--var` text value, as the variable's type reads it. */
  private typed(block: Block, text: string): unknown {
    try {
      return typedValue(block, text, this.directory);
    } catch (error) {
      return this.fail(block, ['type'], (error as Error).message, error);
    }
  }

  /** The `aws` provider's region, when it is written (a default provider, without alias). */
  providerRegion(): string | undefined {
    const provider = this.providers.find(
      (block) =>
        block.address[1] === 'aws' && block.body.alias === undefined && block.body.region !== undefined,
    );
    if (provider === undefined) return undefined;
    const region = this.evaluateAt(provider, ['region']);
    return typeof region === 'string' ? region : undefined;
  }

  /** The module's folder name (for messages). */
  get label(): string {
    return this.prefix === '' ? basename(this.directory) : this.prefix.slice(0, -1);
  }
}

function first(bodies: unknown): Record<string, unknown> {
  const body = Array.isArray(bodies) ? bodies[0] : bodies;
  return isObject(body) ? body : {};
}

function need(name: string | undefined, shape: string): string {
  if (name === undefined) throw new ExpressionError(`a reference is ${shape}`);
  return name;
}

function follow(value: unknown, traversal: readonly Traversal[]): unknown {
  let result = value;
  for (const step of traversal) {
    // A nested block is a list of one (hcl2json): `.ttl.enabled` reads its first.
    if ('name' in step && Array.isArray(result) && result.length === 1 && isObject(result[0]))
      result = result[0];
    result = indexInto(result, 'name' in step ? step.name : step.index);
  }
  return result;
}

function rawAt(body: unknown, path: readonly (string | number)[]): unknown {
  let node = body;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isObject(node) && Object.hasOwn(node, String(key))) node = node[String(key)];
    else return undefined;
  }
  return node;
}
