import { bindingsOf, runsLocally } from '../bindings.js';
import type { EddyConfig, TableConfig } from '../config.js';
import { ARCHIVER_NAME, archiveResources } from './archive.js';
import { Destinations } from './destinations.js';
import {
  DEFAULT_RUNTIME,
  type FunctionContext,
  functionResource,
  type LambdaRuntime,
  templatePath,
} from './functions.js';
import { tableResource } from './tables.js';
import {
  LogicalIds,
  NOT_DEPLOYED,
  type SamTemplate,
  SynthError,
  type TemplateResource,
  type TemplateValue,
  type Warn,
} from './template.js';

/**
 * The AWS SAM template of a config: the same tables, functions, stream bindings, schedules and
 * archive the local stack runs (both read `bindingsOf`), as CloudFormation resources.
 *
 * @example
 * ```ts
 * const { template, warnings } = synthesize(config, {
 *   baseDirectory: process.cwd(),
 *   codeUriOf: (name) => `dist/functions/${name}.zip`,
 * });
 * ```
 */
export interface SynthOptions {
  /** Where the config's relative handler paths start (the config file's folder). */
  readonly baseDirectory: string;
  /** CodeUri of a function's deployment package, relative to where the template is written. */
  readonly codeUriOf: (functionName: string) => string;
  /** The config file's name, for the template's description. */
  readonly source?: string;
  /** Lambda runtime of every function (default `DEFAULT_RUNTIME`). */
  readonly runtime?: LambdaRuntime;
  /**
   * Where the template is written (default `baseDirectory`): the handler sources and directories
   * recorded in the template's Eddy metadata are relative to it.
   */
  readonly templateDirectory?: string;
}

export interface SynthResult {
  readonly template: SamTemplate;
  /** What deploys differently from how it runs locally (printed by `eddy synth`). */
  readonly warnings: readonly string[];
}

/**
 * eddy's settings with no place in CloudFormation, kept in the template's `Metadata.Eddy.Local` so
 * that the template read back runs as the config did (paths relative to the template).
 */
function localSettings(config: EddyConfig, context: FunctionContext): Record<string, unknown> {
  const local: Record<string, unknown> = {};
  for (const key of ['ttl', 'globalIndexes', 'streams'] as const)
    if (config[key] !== undefined) local[key] = config[key];
  if (config.destinationsDirectory !== undefined)
    local.destinationsDirectory = templatePath(context, config.destinationsDirectory);
  return local;
}

/** @throws SynthError (or BindingError) for a config that cannot deploy. */
export function synthesize(config: EddyConfig, options: SynthOptions): SynthResult {
  const warnings: string[] = [];
  const warn: Warn = (message) => warnings.push(message);
  const ids = new LogicalIds();
  const resources: Record<string, TemplateResource> = {};
  const outputs: Record<string, { Description: string; Value: TemplateValue }> = {};

  const tables = new Map<string, { logicalId: string; config: TableConfig }>();
  (config.tables ?? []).forEach((table, index) => {
    const path = `tables[${index}]`;
    const name = table.TableName;
    if (typeof name !== 'string' || name === '') throw new SynthError(`${path}.TableName`, 'is required');
    const logicalId = ids.allocate(name, 'Table');
    tables.set(name, { logicalId, config: table });
    resources[logicalId] = tableResource(table, path, warn);
  });

  const destinations = new Destinations(ids);
  const context: FunctionContext = {
    ids,
    tables,
    destinations,
    codeUriOf: options.codeUriOf,
    runtime: options.runtime ?? DEFAULT_RUNTIME,
    templateDirectory: options.templateDirectory ?? options.baseDirectory,
    baseDirectory: options.baseDirectory,
    warn,
  };
  for (const binding of bindingsOf(config, options.baseDirectory)) {
    if (!runsLocally(binding)) {
      warn(
        `functions.${binding.functionName} runs on ${binding.runtime}, which eddy does not build; not deployed`,
      );
      continue;
    }
    const functionConfig = config.functions![binding.functionName]!;
    const { logicalId, resource } = functionResource(binding, functionConfig, options.baseDirectory, context);
    resources[logicalId] = resource;
  }
  if (config.archive !== undefined) {
    if (config.archive.tables.length > 0 && config.functions?.[ARCHIVER_NAME] !== undefined) {
      throw new SynthError(
        `functions.${ARCHIVER_NAME}`,
        "the name is eddy's archiver's (archive is configured): rename the function",
      );
    }
    const archive = archiveResources(config.archive, context);
    Object.assign(resources, archive);
    const bucketId = Object.keys(archive).find((id) => archive[id]!.Type === 'AWS::S3::Bucket');
    if (bucketId !== undefined)
      outputs[bucketId] = { Description: 'Bucket of the TTL archive', Value: { Ref: bucketId } };
  }
  Object.assign(resources, destinations.resources);
  for (const [logicalId, arn] of destinations.created) {
    outputs[logicalId] = {
      Description: `On-failure destination (locally ${arn})`,
      Value: { Ref: logicalId },
    };
  }
  for (const key of ['ttl', 'globalIndexes', 'streams'] as const) {
    if (config[key] !== undefined)
      warn(`${key} settings are local only (DynamoDB manages this itself); not deployed`);
  }
  const local = localSettings(config, context);

  const functionCount = Object.values(resources).filter((r) => r.Type === 'AWS::Serverless::Function').length;
  return {
    template: {
      AWSTemplateFormatVersion: '2010-09-09',
      Transform: 'AWS::Serverless-2016-10-31',
      Description: [
        `eddy synth${options.source ? ` of ${options.source}` : ''}: ${tables.size} tables, ${functionCount} functions.`,
        NOT_DEPLOYED,
      ].join(' '),
      Metadata: {
        Eddy: {
          NotDeployed: {
            'ttl-expirer': 'DynamoDB deletes expired items itself (Time to Live).',
            'gsi-maintainer': 'DynamoDB maintains global secondary indexes itself.',
          },
          Permissions:
            "Project functions get CRUD on the project's tables (DynamoDBCrudPolicy) and send rights to their on-failure destinations; the archiver gets S3CrudPolicy on the archive bucket.",
          ...(Object.keys(local).length > 0 ? { Local: local } : {}),
        },
      },
      Resources: resources,
      ...(Object.keys(outputs).length > 0 ? { Outputs: outputs } : {}),
    },
    warnings,
  };
}
