import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { EddyConfig, FunctionConfig, TableConfig } from '../../../config.js';
import { templateError, templateOptions } from '../cloudformation/index.js';
import { type CfnTemplate, TemplateResolver } from '../cloudformation/intrinsics.js';
import { isObject } from '../cloudformation/shapes.js';
import { TABLE_TYPES } from '../cloudformation/tables.js';
import { readTemplateFile, type TemplateFile, type TemplatePath } from '../cloudformation/templateFile.js';
import { readTemplateStack } from '../cloudformation/templateStack.js';
import {
  errorAtProvenance,
  type LoadStackOptions,
  type StackDefinition,
  type StackSource,
  TemplateError,
} from '../stackDefinition.js';
import { synthesizeCdkApp } from './cdkSynth.js';
import { type AssemblyStack, readCloudAssembly } from './cloudAssembly.js';
import { findCdk } from './paths.js';

/**
 * CDK apps, through their cloud assembly: every stack's template is read as a CloudFormation
 * template (docs/templates.md §4), with the Lambda code taken from the asset folders the
 * assembly holds (what `cdk deploy` would upload: NodejsFunction bundles as CDK built them), and
 * `Fn::ImportValue` between stacks of the assembly answered from the exporting stack's Outputs.
 * The stacks make one local stack: their tables and functions must not share names.
 */
export const cdkSource: StackSource = { format: 'cdk', find: findCdk, load: loadCdk };

async function loadCdk(path: string, options: LoadStackOptions): Promise<StackDefinition> {
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  let target = resolve(options.cwd, path);
  if (basename(target) === 'manifest.json' || basename(target) === 'cdk.json') target = dirname(target);
  const appDirectory = existsSync(join(target, 'cdk.json')) ? target : undefined;
  let assemblyDirectory: string;
  if (options.cdk === true && appDirectory !== undefined)
    assemblyDirectory = await synthesizeCdkApp(appDirectory, { region, accountId });
  else if (existsSync(join(target, 'manifest.json'))) assemblyDirectory = target;
  else if (existsSync(join(target, 'cdk.out', 'manifest.json'))) assemblyDirectory = join(target, 'cdk.out');
  else
    throw new TemplateError(
      target,
      '',
      appDirectory === undefined
        ? 'not a cloud assembly (no manifest.json)'
        : 'a CDK app with no cloud assembly yet: run `cdk synth`, or pass --cdk to let eddy run it',
    );
  const assembly = readCloudAssembly(assemblyDirectory);
  if (assembly.stacks.length === 0)
    throw new TemplateError(assemblyDirectory, '', 'the cloud assembly holds no stack');
  const baseDirectory = appDirectory ?? dirname(assemblyDirectory);
  const parsed = new Map<AssemblyStack, TemplateFile>(
    assembly.stacks.map((stack) => [stack, readTemplateFile(stack.templateFile)]),
  );
  checkOverrides(assembly.stacks, parsed, options, assemblyDirectory);

  // A stack may bind a function to the stream of another stack's table (through an export).
  const assemblyTables = new Set(
    assembly.stacks.flatMap((stack) => {
      const file = parsed.get(stack)!;
      const resolver = new TemplateResolver(file.template as CfnTemplate, {
        ...templateOptions(
          file,
          { ...options, parameters: parametersOf(file, options) },
          dirname(stack.templateFile),
          stack.stackName,
        ),
      });
      return resolver
        .resources()
        .filter(
          ([id, resource]) =>
            (TABLE_TYPES as readonly string[]).includes(resource.Type) && resolver.included(id),
        )
        .map(([id]) => resolver.nameOf(id));
    }),
  );
  const tables: TableConfig[] = [];
  const functions: Record<string, FunctionConfig> = {};
  const notices: string[] = [];
  const provenance = new Map<string, { file: TemplateFile; path: TemplatePath }>();
  const local: Partial<EddyConfig> = {};
  for (const stack of assembly.stacks) {
    const file = parsed.get(stack)!;
    const base = templateOptions(
      file,
      { ...options, parameters: parametersOf(file, options) },
      dirname(stack.templateFile),
      stack.stackName,
    );
    const read = readTemplateStack(file.template, {
      ...base,
      workDirectory: options.workDirectory ?? join(baseDirectory, '.eddy'),
      codeOf: (_logicalId, resource) => assembly.codeOf(stack, resource),
      importValue: (name) => exportedValue(assembly.stacks, parsed, name, options, stack),
      knownTables: assemblyTables,
    });
    const label = assembly.stacks.length > 1 ? `${stack.stackName}: ` : '';
    notices.push(...read.notices.map((line) => `${label}${line}`));
    const tableOffset = tables.length;
    for (const table of read.config.tables ?? []) {
      if (tables.some((known) => known.TableName === table.TableName))
        throw templateError(
          file,
          read.provenance.get(`tables[${tables.length - tableOffset}]`) ?? [],
          `a table named '${table.TableName}' is in another stack of the assembly too`,
        );
      tables.push(table);
    }
    for (const [key, place] of read.provenance) {
      const shifted = key.replace(
        /^tables\[(\d+)\]/,
        (_match, index: string) => `tables[${Number(index) + tableOffset}]`,
      );
      provenance.set(shifted, { file, path: place });
    }
    for (const [name, fn] of Object.entries(read.config.functions ?? {})) {
      if (Object.hasOwn(functions, name))
        throw templateError(
          file,
          read.provenance.get(`functions.${name}`) ?? [],
          `a function named '${name}' is in another stack of the assembly too`,
        );
      functions[name] = fn;
    }
    const { tables: _t, functions: _f, ...rest } = read.config;
    Object.assign(local, rest);
  }
  return {
    config: { ...local, tables, functions },
    origin: {
      format: 'cdk',
      file: assemblyDirectory,
      kind: 'CDK cloud assembly',
      discovered: options.discovered === true,
    },
    baseDirectory,
    notices,
    watchFiles: [
      join(assemblyDirectory, 'manifest.json'),
      ...assembly.stacks.map((stack) => stack.templateFile),
    ],
    errorAt: errorAtProvenance(provenance, (place, reason, errorOptions) =>
      place === undefined
        ? new TemplateError(assemblyDirectory, '', reason, errorOptions)
        : templateError(place.file, place.path, reason, errorOptions),
    ),
  };
}

/** The overrides a stack declares (each stack takes those of its own parameters). */
function parametersOf(file: TemplateFile, options: LoadStackOptions): Record<string, string> {
  const declared = parametersSection(file);
  return Object.fromEntries(
    Object.entries(options.parameters ?? {}).filter(([name]) => Object.hasOwn(declared, name)),
  );
}

function parametersSection(file: TemplateFile): Record<string, unknown> {
  const template = file.template;
  return isObject(template) && isObject(template.Parameters) ? template.Parameters : {};
}

function checkOverrides(
  stacks: readonly AssemblyStack[],
  parsed: ReadonlyMap<AssemblyStack, TemplateFile>,
  options: LoadStackOptions,
  directory: string,
): void {
  const declared = new Set(stacks.flatMap((stack) => Object.keys(parametersSection(parsed.get(stack)!))));
  const unknown = Object.keys(options.parameters ?? {}).filter((name) => !declared.has(name));
  if (unknown.length > 0)
    throw new TemplateError(
      directory,
      '',
      `--parameter-overrides names ${unknown.join(', ')}, which no stack of the assembly declares (Parameters: ${[...declared].join(', ') || 'none'})`,
    );
}

/** `Fn::ImportValue`: the Output of a stack of the assembly exported under that name. */
function exportedValue(
  stacks: readonly AssemblyStack[],
  parsed: ReadonlyMap<AssemblyStack, TemplateFile>,
  name: string,
  options: LoadStackOptions,
  importer: AssemblyStack,
  /** Exports being resolved (an export that needs itself is not there). */
  pending: ReadonlySet<string> = new Set(),
): { value: unknown } | undefined {
  if (pending.has(name)) return undefined;
  const inner = new Set([...pending, name]);
  for (const stack of stacks) {
    if (stack === importer) continue;
    const file = parsed.get(stack)!;
    const template = file.template as CfnTemplate;
    const resolver = new TemplateResolver(template, {
      ...templateOptions(
        file,
        { ...options, parameters: parametersOf(file, options) },
        dirname(stack.templateFile),
        stack.stackName,
      ),
      importValue: (next) => exportedValue(stacks, parsed, next, options, stack, inner),
    });
    for (const [outputName, output] of Object.entries(template.Outputs ?? {})) {
      if (output?.Export === undefined) continue;
      const exported = resolver.resolve((output.Export as { Name?: unknown }).Name, [
        'Outputs',
        outputName,
        'Export',
        'Name',
      ]);
      if (exported === name)
        return { value: resolver.resolve(output.Value, ['Outputs', outputName, 'Value']) };
    }
  }
  return undefined;
}
