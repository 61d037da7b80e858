import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FunctionBuildConfig, FunctionConfig } from '../../../config.js';
import {
  type BuildMetadata,
  type CodeSource,
  codePath,
  HandlerCodeError,
  type HandlerModule,
  handlerModule,
} from './handlerCode.js';
import type { CfnResource, TemplateResolver } from './intrinsics.js';
import { eddyMetadata } from './resourceAttributes.js';
import { isObject } from './shapes.js';
import type { TemplatePath } from './templateFile.js';
import { Values } from './values.js';

/**
 * Functions of a template: `AWS::Serverless::Function` (after Globals) and `AWS::Lambda::Function`,
 * as eddy config functions (their events are read by `events.ts`).
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-resource-function.html
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-lambda-function.html
 *
 * A function in a runtime other than Node.js (or packaged as a container image) is kept, with its
 * runtime, so that its bindings are listed and kept disabled; its code is not looked for.
 */
export const FUNCTION_TYPES = ['AWS::Serverless::Function', 'AWS::Lambda::Function'] as const;

export interface FunctionReadOptions {
  /** Where CodeUri and Code paths start: the template's folder. */
  readonly templateDirectory: string;
  /** Where inline code and unpacked zips are written. */
  readonly workDirectory: string;
  /**
   * The code of a function the template holds in S3 but the loader has locally (a CDK asset
   * folder), by logical id.
   */
  readonly codeOf?: (logicalId: string, resource: CfnResource) => CodeSource | undefined;
}

export interface FunctionReadResult {
  readonly name: string;
  readonly config: Omit<FunctionConfig, 'events'>;
  /** Why eddy does not run it, when it does not. */
  readonly notRunning?: string;
}

export function readFunction(
  resolver: TemplateResolver,
  logicalId: string,
  options: FunctionReadOptions,
): FunctionReadResult {
  const resource = resolver.resource(logicalId)!;
  const values = new Values(resolver);
  const path = (...keys: (string | number)[]): TemplatePath => [
    'Resources',
    logicalId,
    'Properties',
    ...keys,
  ];
  const get = (name: string) => resolver.property(logicalId, name);
  const name = resolver.nameOf(logicalId);
  const sam = resource.Type === 'AWS::Serverless::Function';
  const handler = values.string(get('Handler'), path('Handler'));
  const runtime = values.string(get('Runtime'), path('Runtime'));
  const environment = isObject(get('Environment'))
    ? values.stringMap(
        (get('Environment') as Record<string, unknown>).Variables,
        path('Environment', 'Variables'),
      )
    : undefined;
  const settings = {
    ...(values.number(get('Timeout'), path('Timeout')) === undefined
      ? {}
      : { timeout: values.number(get('Timeout'), path('Timeout'))! }),
    ...(values.number(get('MemorySize'), path('MemorySize')) === undefined
      ? {}
      : { memorySize: values.number(get('MemorySize'), path('MemorySize'))! }),
    ...(environment === undefined || Object.keys(environment).length === 0 ? {} : { environment }),
  };

  const code = sam ? get('CodeUri') : get('Code');
  const image =
    values.string(get('PackageType'), path('PackageType')) === 'Image' ||
    get('ImageUri') !== undefined ||
    (isObject(code) && code.ImageUri !== undefined);
  const notRunning = image
    ? 'a container image'
    : runtime === undefined
      ? 'no Runtime'
      : /^nodejs/.test(runtime)
        ? undefined
        : `runtime ${runtime}`;
  if (notRunning !== undefined) {
    return {
      name,
      config: {
        handler: handler ?? '(none)',
        ...settings,
        runtime: runtime ?? (image ? 'image' : 'unknown'),
      },
      notRunning,
    };
  }

  const metadata = eddyMetadata(resource);
  const recorded = recordedSource(metadata, options.templateDirectory);
  let module: HandlerModule;
  if (recorded !== undefined) module = recorded;
  else {
    if (handler === undefined) return values.fail(path('Handler'), 'a Node.js function needs a Handler');
    const source =
      options.codeOf?.(logicalId, resource) ??
      codeSourceOf(sam, code, sam ? get('InlineCode') : undefined, options.templateDirectory);
    try {
      module = handlerModule(source, handler, {
        functionName: name,
        workDirectory: options.workDirectory,
        ...buildOf(resource),
      });
    } catch (error) {
      if (!(error instanceof HandlerCodeError)) throw error;
      const property =
        error.property === 'Metadata'
          ? ['Resources', logicalId, 'Metadata']
          : path(
              error.property === 'Code' || error.property === 'CodeUri'
                ? sam
                  ? 'CodeUri'
                  : 'Code'
                : error.property,
            );
      return values.fail(property, error.message);
    }
  }
  const isolation = metadata?.Isolation === 'worker' ? { isolation: 'worker' as const } : {};
  return {
    name,
    config: {
      handler: module.module,
      ...(module.exportName === 'handler' ? {} : { exportName: module.exportName }),
      ...settings,
      ...isolation,
      runtime: runtime!,
      ...(module.build === undefined ? {} : { build: module.build }),
    },
  };
}

/** `Metadata.BuildMethod` and `BuildProperties` (sam build's). */
function buildOf(resource: CfnResource): { build?: BuildMetadata } {
  const method = resource.Metadata?.BuildMethod;
  if (typeof method !== 'string') return {};
  const properties = resource.Metadata?.BuildProperties;
  return {
    build: { method, ...(isObject(properties) ? { properties } : {}) },
  };
}

/** The source module eddy synth recorded (`Metadata.Eddy.Handler`), when it is there. */
function recordedSource(
  metadata: Readonly<Record<string, unknown>> | undefined,
  templateDirectory: string,
): HandlerModule | undefined {
  if (typeof metadata?.Handler !== 'string') return undefined;
  const module = resolve(templateDirectory, metadata.Handler);
  if (!existsSync(module)) return undefined;
  return {
    module,
    exportName: typeof metadata.Export === 'string' ? metadata.Export : 'handler',
    ...(isObject(metadata.Build) ? { build: metadata.Build as FunctionBuildConfig } : {}),
  };
}

function codeSourceOf(sam: boolean, code: unknown, inline: unknown, templateDirectory: string): CodeSource {
  if (typeof inline === 'string') return { kind: 'inline', code: inline };
  if (typeof code === 'string') {
    if (code.startsWith('s3://'))
      return {
        kind: 'unavailable',
        reason: `the code is in S3 (${code}); eddy runs code from local folders`,
      };
    return { kind: 'directory', directory: codePath(templateDirectory, code) };
  }
  if (isObject(code)) {
    if (typeof code.ZipFile === 'string') return { kind: 'inline', code: code.ZipFile };
    const bucket = code.S3Bucket ?? code.Bucket;
    const key = code.S3Key ?? code.Key;
    if (bucket !== undefined)
      return {
        kind: 'unavailable',
        reason: `the code is in S3 (s3://${String(bucket)}/${String(key)}); eddy runs code from local folders`,
      };
  }
  // SAM's CodeUri defaults to the template's folder when InlineCode is absent too.
  if (sam && code === undefined) return { kind: 'directory', directory: templateDirectory };
  return { kind: 'unavailable', reason: 'the function has no code (Code with ZipFile, or a local path)' };
}
