import { Conditions } from './conditions.js';
import { type ParameterValues, parameterValue, type TemplateParameter } from './parameters.js';
import { type PseudoParameters, pseudoParameter } from './pseudoParameters.js';
import { attributeOf, localName, refOf } from './resourceAttributes.js';
import { isObject } from './shapes.js';
import type { TemplatePath } from './templateFile.js';

/**
 * CloudFormation's intrinsic functions, evaluated the way CloudFormation evaluates them at deploy
 * time, for a template that runs locally: `Ref`, `Fn::GetAtt`, `Fn::Sub` (both forms), `Fn::Join`,
 * `Fn::Select`, `Fn::Split`, `Fn::If` with `Conditions` (`Fn::Equals`, `Fn::Not`, `Fn::And`,
 * `Fn::Or`, `Condition`), `Fn::FindInMap` with `Mappings`, `Fn::Base64`, `Fn::GetAZs`, and the
 * `AWS::LanguageExtensions` functions `Fn::Length` and `Fn::ToJsonString`; pseudo parameters;
 * `Parameters` with defaults and overrides.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 *
 * Evaluation is lazy: only the values eddy reads are resolved, so a template whose IAM policies
 * import values from other stacks still runs, and an error names the one property that needs what
 * eddy cannot give. A resource's Ref and attributes are what the local stack gives it
 * (`resourceAttributes.ts`: a table's Ref is its local name, its StreamArn the local stream's).
 *
 * The serverless.yml loader uses this as is for its `resources.Resources` section.
 */

/** `AWS::NoValue`: the property it stands for is removed (as if not written). */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/** A template, as far as the resolver reads it (the sections are checked by `checkSections`). */
export interface CfnTemplate {
  readonly Parameters?: Readonly<Record<string, TemplateParameter>>;
  readonly Mappings?: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>;
  readonly Conditions?: Readonly<Record<string, unknown>>;
  readonly Resources?: Readonly<Record<string, CfnResource>>;
  readonly Outputs?: Readonly<Record<string, { readonly Value?: unknown; readonly Export?: unknown }>>;
  readonly Globals?: Readonly<Record<string, unknown>>;
  readonly Transform?: unknown;
}

export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Readonly<Record<string, unknown>>;
  readonly Condition?: string;
  readonly Metadata?: Readonly<Record<string, unknown>>;
}

export interface ResolverOptions {
  readonly pseudo: PseudoParameters;
  /** `--parameter-overrides`, by parameter name. */
  readonly parameters: ParameterValues;
  /**
   * `Fn::ImportValue`: the value another stack exports under that name, when the loader knows it
   * (the stacks of one CDK cloud assembly). Absent, or `undefined` for a name: an error.
   */
  readonly importValue?: (exportName: string) => { readonly value: unknown } | undefined;
  /** Throws the loader's error for a path of the template. */
  readonly fail: (path: TemplatePath, reason: string) => never;
  /**
   * The Ref value of resources whose local name is not a property of theirs (SAM-generated
   * names...). Default: `refOf`.
   */
  readonly nameOf?: (logicalId: string, resource: CfnResource) => string | undefined;
}

/** The intrinsic functions by their long-form key. */
const FUNCTION_KEYS = new Set([
  'Ref',
  'Fn::GetAtt',
  'Fn::Sub',
  'Fn::Join',
  'Fn::Select',
  'Fn::Split',
  'Fn::If',
  'Fn::Equals',
  'Fn::Not',
  'Fn::And',
  'Fn::Or',
  'Fn::FindInMap',
  'Fn::Base64',
  'Fn::GetAZs',
  'Fn::ImportValue',
  'Fn::Length',
  'Fn::ToJsonString',
  'Fn::Cidr',
  'Fn::Transform',
  'Fn::ForEach',
  'Fn::GetStackOutput',
]);

export class TemplateResolver {
  private readonly conditions: Conditions;
  private readonly evaluating = new Set<string>();
  private readonly names = new Map<string, string>();

  constructor(
    readonly template: CfnTemplate,
    readonly options: ResolverOptions,
  ) {
    this.conditions = new Conditions(template.Conditions ?? {}, {
      evaluate: (value, path) => this.resolve(value, path),
      fail: (path, reason) => this.fail(path, reason),
    });
  }

  get pseudo(): PseudoParameters {
    return this.options.pseudo;
  }

  /** The resources, each with its logical id. */
  resources(): [string, CfnResource][] {
    return Object.entries(this.template.Resources ?? {});
  }

  resource(logicalId: string): CfnResource | undefined {
    const resources = this.template.Resources ?? {};
    return Object.hasOwn(resources, logicalId) ? resources[logicalId] : undefined;
  }

  /** Whether a resource is created: no `Condition`, or one that holds. */
  included(logicalId: string): boolean {
    const condition = this.resource(logicalId)?.Condition;
    return condition === undefined || this.condition(condition, ['Resources', logicalId, 'Condition']);
  }

  /**
   * A property of a resource, resolved (`undefined` when absent or `AWS::NoValue`).
   * @throws the loader's error naming the resource and the property.
   */
  property(logicalId: string, name: string): unknown {
    const properties = this.resource(logicalId)?.Properties;
    if (properties === undefined || !Object.hasOwn(properties, name)) return undefined;
    return this.resolve(properties[name], ['Resources', logicalId, 'Properties', name]);
  }

  /** A value with every intrinsic function evaluated; `AWS::NoValue` members are dropped. */
  resolve(value: unknown, path: TemplatePath): unknown {
    const resolved = this.evaluate(value, path);
    return resolved === NO_VALUE ? undefined : resolved;
  }

  fail(path: TemplatePath, reason: string): never {
    return this.options.fail(path, reason);
  }

  private evaluate(value: unknown, path: TemplatePath): unknown {
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      value.forEach((item, index) => {
        const resolved = this.evaluate(item, [...path, index]);
        if (resolved !== NO_VALUE) items.push(resolved);
      });
      return items;
    }
    if (!isObject(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && FUNCTION_KEYS.has(keys[0]!)) {
      const key = keys[0]!;
      return this.call(key, value[key], [...path, key]);
    }
    const result: Record<string, unknown> = {};
    for (const key of keys) {
      const resolved = this.evaluate(value[key], [...path, key]);
      if (resolved !== NO_VALUE)
        Object.defineProperty(result, key, {
          value: resolved,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return result;
  }

  private call(name: string, argument: unknown, path: TemplatePath): unknown {
    switch (name) {
      case 'Ref':
        return this.ref(this.text(argument, path, 'Ref takes a name'), path);
      case 'Fn::GetAtt':
        return this.getAtt(argument, path);
      case 'Fn::Sub':
        return this.sub(argument, path);
      case 'Fn::Join': {
        const [delimiter, list] = this.arguments(
          argument,
          path,
          2,
          'Fn::Join takes [delimiter, [values...]]',
        );
        const separator = this.text(
          this.evaluate(delimiter, [...path, 0]),
          [...path, 0],
          'the delimiter must be a string',
        );
        const items = this.list(this.evaluate(list, [...path, 1]), [...path, 1]);
        return items.map((item, index) => this.scalarText(item, [...path, 1, index])).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = this.arguments(argument, path, 2, 'Fn::Select takes [index, [values...]]');
        const position = Number(this.evaluate(index, [...path, 0]));
        const items = this.list(this.evaluate(list, [...path, 1]), [...path, 1]);
        if (!Number.isInteger(position) || position < 0 || position >= items.length)
          return this.fail(path, `index ${String(position)} is outside the list of ${items.length}`);
        return items[position];
      }
      case 'Fn::Split': {
        const [delimiter, source] = this.arguments(argument, path, 2, 'Fn::Split takes [delimiter, string]');
        const separator = this.text(
          this.evaluate(delimiter, [...path, 0]),
          [...path, 0],
          'the delimiter must be a string',
        );
        return this.text(
          this.evaluate(source, [...path, 1]),
          [...path, 1],
          'Fn::Split splits a string',
        ).split(separator);
      }
      case 'Fn::If': {
        const [condition, whenTrue, whenFalse] = this.arguments(
          argument,
          path,
          3,
          'Fn::If takes [condition, value if true, value if false]',
        );
        const holds = this.condition(this.text(condition, [...path, 0], 'a condition name'), [...path, 0]);
        return holds ? this.evaluate(whenTrue, [...path, 1]) : this.evaluate(whenFalse, [...path, 2]);
      }
      case 'Fn::Equals':
      case 'Fn::Not':
      case 'Fn::And':
      case 'Fn::Or':
        return this.conditions.conditionFunction(name, argument, path);
      case 'Fn::FindInMap':
        return this.findInMap(argument, path);
      case 'Fn::Base64':
        return Buffer.from(
          this.text(this.evaluate(argument, path), path, 'Fn::Base64 encodes a string'),
        ).toString('base64');
      case 'Fn::GetAZs': {
        const region = this.evaluate(argument, path);
        const name =
          region === '' || region === undefined ? this.pseudo.region : this.text(region, path, 'a region');
        // Three zones: what every commercial region has at least (a, b, c).
        return ['a', 'b', 'c'].map((zone) => `${name}${zone}`);
      }
      case 'Fn::ImportValue': {
        const exportName = this.text(
          this.evaluate(argument, path),
          path,
          'Fn::ImportValue takes an export name',
        );
        const imported = this.options.importValue?.(exportName);
        if (imported === undefined)
          return this.fail(
            path,
            `Fn::ImportValue '${exportName}' reads an export of another stack, which eddy does not have: put the value in a parameter (with --parameter-overrides) or the resource in this template`,
          );
        return imported.value;
      }
      case 'Fn::Length':
        return this.list(this.evaluate(argument, path), path).length;
      case 'Fn::ToJsonString':
        return JSON.stringify(this.evaluate(argument, path));
      default:
        return this.fail(path, `${name} is not supported by eddy`);
    }
  }

  /** Ref: a parameter, a pseudo parameter or a resource. */
  ref(name: string, path: TemplatePath): unknown {
    if (name.startsWith('AWS::')) {
      if (name === 'AWS::NoValue') return NO_VALUE;
      const value = pseudoParameter(this.pseudo, name);
      return value === undefined ? this.fail(path, `no pseudo parameter ${name}`) : value;
    }
    const parameters = this.template.Parameters ?? {};
    if (Object.hasOwn(parameters, name))
      return parameterValue(name, parameters[name]!, this.options.parameters, (reason) =>
        this.fail(['Parameters', name], reason),
      );
    return refOf(this, name, this.existing(name, path), path);
  }

  /** A resource's local name: its Ref for tables and functions, the name part of its ARN for others. */
  nameOf(logicalId: string): string {
    const known = this.names.get(logicalId);
    if (known !== undefined) return known;
    const resource = this.resource(logicalId);
    if (resource === undefined) return logicalId;
    const key = `name:${logicalId}`;
    if (this.evaluating.has(key))
      return this.fail(['Resources', logicalId], 'its name refers to itself (a circular reference)');
    this.evaluating.add(key);
    try {
      const name = this.options.nameOf?.(logicalId, resource) ?? localName(this, logicalId, resource);
      this.names.set(logicalId, name);
      return name;
    } finally {
      this.evaluating.delete(key);
    }
  }

  private existing(logicalId: string, path: TemplatePath): CfnResource {
    const resource = this.resource(logicalId);
    if (resource === undefined)
      return this.fail(
        path,
        `'${logicalId}' is not a parameter, a pseudo parameter or a resource of the template`,
      );
    if (!this.included(logicalId))
      return this.fail(
        path,
        `resource '${logicalId}' is not created (its condition ${resource.Condition} is false): refer to it inside an Fn::If on that condition`,
      );
    return resource;
  }

  private getAtt(argument: unknown, path: TemplatePath): unknown {
    const parts =
      typeof argument === 'string'
        ? [argument.slice(0, argument.indexOf('.')), argument.slice(argument.indexOf('.') + 1)]
        : this.arguments(argument, path, 2, 'Fn::GetAtt takes [resource, attribute]');
    const logicalId = this.text(parts[0], [...path, 0], 'the resource must be a logical id');
    const attribute = this.text(
      this.evaluate(parts[1], [...path, 1]),
      [...path, 1],
      'the attribute must be a string',
    );
    const resource = this.existing(logicalId, path);
    return attributeOf(this, logicalId, resource, attribute, path);
  }

  private sub(argument: unknown, path: TemplatePath): string {
    let text: string;
    let variables: Record<string, unknown> = {};
    if (typeof argument === 'string') text = argument;
    else {
      const [template, map] = this.arguments(
        argument,
        path,
        2,
        'Fn::Sub takes a string or [string, { name: value }]',
      );
      text = this.text(template, [...path, 0], 'the first member must be a string');
      if (!isObject(map)) return this.fail([...path, 1], 'the second member must be a map of variables');
      variables = map;
    }
    return text.replace(/\$\{([^}]*)\}/g, (_whole, inner: string) => {
      // `${!Literal}` writes `${Literal}`.
      if (inner.startsWith('!')) return `\${${inner.slice(1)}}`;
      const name = inner.trim();
      if (Object.hasOwn(variables, name)) {
        const where = [...path, 1, name];
        return this.scalarText(this.evaluate(variables[name], where), where);
      }
      if (name.startsWith('AWS::') || !name.includes('.')) {
        const value = this.ref(name, path);
        if (value === NO_VALUE) return this.fail(path, `\${${name}} cannot stand in a string`);
        return this.scalarText(value, path);
      }
      const dot = name.indexOf('.');
      const resource = this.existing(name.slice(0, dot), path);
      return this.scalarText(
        attributeOf(this, name.slice(0, dot), resource, name.slice(dot + 1), path),
        path,
      );
    });
  }

  private findInMap(argument: unknown, path: TemplatePath): unknown {
    const [map, top, second] = this.arguments(
      argument,
      path,
      3,
      'Fn::FindInMap takes [map, top-level key, second-level key]',
    );
    const names = [map, top, second].map((key, index) =>
      this.scalarText(this.evaluate(key, [...path, index]), [...path, index]),
    );
    const [mapName, topKey, secondKey] = names as [string, string, string];
    const mappings = this.template.Mappings ?? {};
    const mapping = Object.hasOwn(mappings, mapName) ? mappings[mapName] : undefined;
    if (mapping === undefined) return this.fail(path, `no mapping '${mapName}' in Mappings`);
    const level = Object.hasOwn(mapping, topKey) ? mapping[topKey] : undefined;
    if (level === undefined) return this.fail(path, `mapping '${mapName}' has no key '${topKey}'`);
    if (!Object.hasOwn(level, secondKey))
      return this.fail(path, `mapping '${mapName}' has no key '${secondKey}' under '${topKey}'`);
    return this.evaluate(level[secondKey], ['Mappings', mapName, topKey, secondKey]);
  }

  /** A named condition of the Conditions section. */
  condition(name: string, path: TemplatePath): boolean {
    return this.conditions.condition(name, path);
  }

  arguments(argument: unknown, path: TemplatePath, count: number, usage: string): unknown[] {
    if (!Array.isArray(argument) || argument.length !== count) return this.fail(path, usage);
    return argument;
  }

  private list(value: unknown, path: TemplatePath): unknown[] {
    if (!Array.isArray(value)) return this.fail(path, 'a list is needed here');
    return value;
  }

  text(value: unknown, path: TemplatePath, usage: string): string {
    if (typeof value !== 'string') return this.fail(path, usage);
    return value;
  }

  /** A value as it stands in a string (Fn::Sub, Fn::Join): strings, numbers and booleans. */
  private scalarText(value: unknown, path: TemplatePath): string {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return this.fail(path, `a string is needed here, not ${Array.isArray(value) ? 'a list' : 'an object'}`);
  }
}
