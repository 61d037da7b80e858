/**
 * The shapes of an AWS SAM template and the helpers its builders share.
 *
 * Intrinsic functions are written in their long forms (`{ Ref: X }`, `{ 'Fn::GetAtt': [X, Attr] }`,
 * `{ 'Fn::Sub': ... }`): CloudFormation accepts them in YAML and JSON alike, so one object renders
 * to both formats and any YAML parser reads the template back without custom `!Ref` tags
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html).
 */

export type Ref = { readonly Ref: string };
export type GetAtt = { readonly 'Fn::GetAtt': readonly [string, string] };
export type Sub = { readonly 'Fn::Sub': string };
export type Intrinsic = Ref | GetAtt | Sub;

/** A value in a template: a literal or an intrinsic function. */
export type TemplateValue = string | Intrinsic;

export const ref = (logicalId: string): Ref => ({ Ref: logicalId });
export const getAtt = (logicalId: string, attribute: string): GetAtt => ({
  'Fn::GetAtt': [logicalId, attribute],
});
export const sub = (text: string): Sub => ({ 'Fn::Sub': text });

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  /**
   * `Eddy`: what eddy needs to run the resource locally as the config did when the template is
   * read back (`eddy serve --template`): local names, the handler's source, eddy's own settings.
   */
  readonly Metadata?: Record<string, unknown>;
  readonly DeletionPolicy?: 'Delete' | 'Retain';
  readonly UpdateReplacePolicy?: 'Delete' | 'Retain';
}

export interface SamTemplate {
  readonly AWSTemplateFormatVersion: '2010-09-09';
  /** https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-specification-template-anatomy.html */
  readonly Transform: 'AWS::Serverless-2016-10-31';
  readonly Description: string;
  readonly Metadata: Record<string, unknown>;
  readonly Resources: Record<string, TemplateResource>;
  readonly Outputs?: Record<string, { readonly Description: string; readonly Value: TemplateValue }>;
}

/** An IAM policy statement (inline in a function's `Policies`). */
export interface PolicyStatement {
  readonly Effect: 'Allow';
  readonly Action: string | readonly string[];
  readonly Resource: TemplateValue | readonly TemplateValue[];
}

/** Why two built-in functions have no resource (the template says it too). */
export const NOT_DEPLOYED =
  'Not deployed: the ttl-expirer and the gsi-maintainer, because DynamoDB deletes expired items (TTL) and maintains global secondary indexes itself.';

/** The formats a template is written in (`renderTemplate`). */
export const TEMPLATE_FORMATS = ['yaml', 'json'] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

/** A config eddy cannot deploy: where in the config and why. */
export class SynthError extends Error {
  override readonly name = 'SynthError';
  constructor(
    /** Where in the config (`functions.tally.events[0]`). */
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** Something that deploys differently from how it runs locally; the template is still written. */
export type Warn = (message: string) => void;

/**
 * Logical IDs: alphanumeric and unique within the template
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/resources-section-structure.html).
 * Names are PascalCased around their punctuation (`tally-failures` + `Queue` → `TallyFailuresQueue`);
 * a name taken already gets a number (`TallyFailuresQueue2`).
 */
export class LogicalIds {
  private readonly taken = new Set<string>();

  allocate(name: string, suffix: string): string {
    const base = `${pascalCase(name)}${suffix}` || suffix;
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}${n}`;
    this.taken.add(id);
    return id;
  }
}

export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** The object without its `undefined` members (a template has no place for them). */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as Partial<T>;
}
