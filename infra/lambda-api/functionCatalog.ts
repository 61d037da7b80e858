import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import { HandlerLoadError } from '../functions/handlerModule.js';
import type { FunctionDefinition } from '../functions/localFunction.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import { DEFAULT_RUNTIME } from '../synth/functions.js';
import { ResourceConflictException, ResourceNotFoundException } from './errors.js';
import { codeSha256, locateHandler, removeCode, type StoredCode, storeCode } from './functionCode.js';
import { type FunctionSettings, SETTING_DEFAULTS } from './functionSettings.js';

/** Where asynchronous invocations of a function go after they succeed or fail for good. */
export interface EventInvokeConfig {
  /** Undefined: Lambda's default (2). */
  readonly maximumRetryAttempts: number | undefined;
  /** Undefined: Lambda's default (21600, six hours). */
  readonly maximumEventAgeInSeconds: number | undefined;
  readonly onSuccess: string | undefined;
  readonly onFailure: string | undefined;
  /** Epoch ms. */
  readonly lastModified: number;
}

/** What the Lambda API knows of one function beyond how it runs (serialisable: the state file). */
export interface FunctionRecord extends FunctionSettings {
  readonly name: string;
  /** `api`: created through CreateFunction; `config`: declared by the project (or built in). */
  readonly origin: 'api' | 'config';
  /** The uploaded package; undefined for a config function still running its own module. */
  readonly code: StoredCode | undefined;
  /** Epoch ms. */
  readonly lastModified: number;
  readonly revisionId: string;
  readonly eventInvokeConfig: EventInvokeConfig | undefined;
}

/** Which answer a configuration is for: CreateFunction and the updates show the transition. */
export type ConfigurationMoment = 'created' | 'updated' | 'settled';

/**
 * The functions of the Lambda API: every function the stack runs (`LocalFunctions`: the config's,
 * the built-in archiver, those created through the API), with the metadata Lambda reports
 * (runtime, handler, code hash, revision...). Creating or updating a function defines it in
 * `LocalFunctions`, so mappings invoke the new code from their next batch.
 *
 * @example
 * ```ts
 * const catalog = new FunctionCatalog({ functions, clock, accountId, region, codeRoot: '/tmp/code' });
 * const record = catalog.create('audit', settings, zipBytes);
 * catalog.configuration(record, 'created').State; // 'Pending'
 * ```
 */
export class FunctionCatalog {
  private readonly records = new Map<string, FunctionRecord>();
  private readonly startedAt: number;
  private readonly hashes = new Map<string, { mtimeMs: number; sha256: string; size: number }>();

  constructor(
    private readonly options: {
      readonly functions: LocalFunctions;
      readonly clock: Clock;
      readonly accountId: string;
      readonly region: string;
      /** Where packages are unpacked: `<codeRoot>/<function>/<revision>/`. */
      readonly codeRoot: string;
    },
  ) {
    this.startedAt = options.clock.now();
  }

  arn(name: string): string {
    return `arn:aws:lambda:${this.options.region}:${this.options.accountId}:function:${name}`;
  }

  /** The function, or ResourceNotFoundException worded as Lambda words it. */
  require(name: string, qualifier?: string): FunctionRecord {
    const record = qualifier === undefined || qualifier === '$LATEST' ? this.get(name) : undefined;
    if (record === undefined)
      throw new ResourceNotFoundException(
        `Function not found: ${this.arn(name)}${qualifier === undefined ? '' : `:${qualifier}`}`,
      );
    return record;
  }

  get(name: string): FunctionRecord | undefined {
    const fn = this.options.functions.get(name);
    if (fn === undefined) {
      this.records.delete(name);
      return undefined;
    }
    let record = this.records.get(name);
    if (record === undefined) {
      record = this.describe(fn.definition);
      this.records.set(name, record);
    }
    return record;
  }

  /** Every function, by name. */
  list(): FunctionRecord[] {
    return this.options.functions
      .names()
      .sort()
      .map((name) => this.get(name)!);
  }

  /** The functions created through the API (what the state file keeps). */
  apiRecords(): FunctionRecord[] {
    return this.list().filter((record) => record.origin === 'api');
  }

  /**
   * CreateFunction: unpacks the code and defines the function.
   * @throws ResourceConflictException when the name is taken.
   */
  create(name: string, settings: FunctionSettings, zip: Uint8Array): FunctionRecord {
    // Lambda's message (moto's `FunctionAlreadyExists`, from recorded answers).
    if (this.options.functions.get(name) !== undefined)
      throw new ResourceConflictException(`Function already exist: ${name}`);
    const revisionId = randomUUID();
    const code = storeCode(this.codeDirectory(name), revisionId, zip);
    return this.install({
      ...settings,
      name,
      origin: 'api',
      code,
      lastModified: this.options.clock.now(),
      revisionId,
      eventInvokeConfig: undefined,
    });
  }

  /** UpdateFunctionCode: the next invocation runs the new package. */
  updateCode(name: string, zip: Uint8Array): FunctionRecord {
    const current = this.require(name);
    const revisionId = randomUUID();
    const code = storeCode(this.codeDirectory(name), revisionId, zip);
    const record = this.install({ ...current, code, lastModified: this.options.clock.now(), revisionId });
    if (current.code !== undefined) removeCode(current.code);
    return record;
  }

  /** UpdateFunctionConfiguration. */
  updateSettings(name: string, settings: FunctionSettings): FunctionRecord {
    const current = this.require(name);
    return this.install({
      ...current,
      ...settings,
      lastModified: this.options.clock.now(),
      revisionId: randomUUID(),
    });
  }

  /** Put/Update/DeleteFunctionEventInvokeConfig (does not change the function's revision). */
  setEventInvokeConfig(name: string, config: EventInvokeConfig | undefined): FunctionRecord {
    const record = { ...this.require(name), eventInvokeConfig: config };
    this.records.set(name, record);
    return record;
  }

  /** DeleteFunction. */
  delete(name: string): void {
    const record = this.require(name);
    this.options.functions.remove(name);
    this.records.delete(name);
    if (record.code !== undefined) removeCode(record.code);
  }

  /** Puts back a function the state file kept (its package is still unpacked where it was). */
  restore(record: FunctionRecord): void {
    this.install(record);
  }

  private codeDirectory(name: string): string {
    return join(this.options.codeRoot, name);
  }

  /** Defines the function in `LocalFunctions` as the record says, and keeps the record. */
  private install(record: FunctionRecord): FunctionRecord {
    const current = this.options.functions.get(record.name)?.definition;
    const runtime: Partial<FunctionDefinition> = {
      timeout: record.timeout,
      memorySize: record.memorySize,
      environment: record.environment ?? {},
    };
    let definition: FunctionDefinition;
    if (record.code !== undefined) {
      const location = locateHandler(record.code.directory, record.handler);
      definition = {
        name: record.name,
        cwd: record.code.directory,
        ...runtime,
        ...(location.file === undefined
          ? { handler: missingModule(location.moduleName) }
          : { module: location.file, exportName: location.exportName }),
        ...(current?.maxWorkers === undefined ? {} : { maxWorkers: current.maxWorkers }),
        isolation: location.file !== undefined && current?.isolation === 'worker' ? 'worker' : 'in-process',
      };
    } else {
      // A config function whose settings changed: same code, new settings.
      definition = { ...current!, ...runtime };
    }
    this.options.functions.define(definition);
    this.records.set(record.name, record);
    return record;
  }

  /** The record of a function the API did not create (the config's, a built-in one). */
  private describe(definition: FunctionDefinition): FunctionRecord {
    const environment = definition.environment;
    return {
      name: definition.name,
      origin: 'config',
      runtime: DEFAULT_RUNTIME,
      // eddy has no IAM: a placeholder in the shape of a role ARN.
      role: `arn:aws:iam::${this.options.accountId}:role/eddy-${definition.name}`,
      // `eddy build` bundles each function as index.mjs, exporting its handler.
      handler: `index.${definition.exportName ?? 'handler'}`,
      description: '',
      timeout: definition.timeout ?? SETTING_DEFAULTS.timeout,
      memorySize: definition.memorySize ?? SETTING_DEFAULTS.memorySize,
      environment:
        environment === undefined || Object.keys(environment).length === 0 ? undefined : environment,
      deadLetterTarget: undefined,
      tracingMode: SETTING_DEFAULTS.tracingMode,
      architectures: SETTING_DEFAULTS.architectures,
      ephemeralStorage: SETTING_DEFAULTS.ephemeralStorage,
      code: undefined,
      lastModified: this.startedAt,
      revisionId: randomUUID(),
      eventInvokeConfig: undefined,
    };
  }

  /** CodeSha256 and CodeSize: the package's, or a config function's module file's. */
  private codeFacts(record: FunctionRecord): { sha256: string; size: number } {
    if (record.code !== undefined) return record.code;
    const module = this.options.functions.get(record.name)?.definition.module;
    if (module === undefined) return { sha256: codeSha256(new Uint8Array()), size: 0 };
    try {
      const { mtimeMs } = statSync(module);
      const known = this.hashes.get(module);
      if (known !== undefined && known.mtimeMs === mtimeMs) return known;
      const bytes = readFileSync(module);
      const facts = { mtimeMs, sha256: codeSha256(bytes), size: bytes.length };
      this.hashes.set(module, facts);
      return facts;
    } catch {
      return { sha256: codeSha256(new Uint8Array()), size: 0 };
    }
  }

  /**
   * FunctionConfiguration as Lambda answers it (members in the order of the documented example,
   * https://docs.aws.amazon.com/lambda/latest/dg/functions-states.html). eddy's functions are
   * ready at once: CreateFunction answers `Pending` (as Lambda does, clients wait for `Active`),
   * an update answers `LastUpdateStatus: InProgress`, and every later read shows them done.
   */
  configuration(record: FunctionRecord, moment: ConfigurationMoment = 'settled'): Record<string, unknown> {
    const { sha256, size } = this.codeFacts(record);
    const configuration: Record<string, unknown> = {
      FunctionName: record.name,
      FunctionArn: this.arn(record.name),
      Runtime: record.runtime,
      Role: record.role,
      Handler: record.handler,
      CodeSize: size,
      Description: record.description,
      Timeout: record.timeout,
      MemorySize: record.memorySize,
      LastModified: lambdaTimestamp(record.lastModified),
      CodeSha256: sha256,
      Version: '$LATEST',
    };
    if (record.environment !== undefined && Object.keys(record.environment).length > 0)
      configuration.Environment = { Variables: { ...record.environment } };
    if (record.deadLetterTarget !== undefined)
      configuration.DeadLetterConfig = { TargetArn: record.deadLetterTarget };
    Object.assign(configuration, {
      TracingConfig: { Mode: record.tracingMode },
      RevisionId: record.revisionId,
    });
    if (moment === 'created') {
      Object.assign(configuration, {
        State: 'Pending',
        StateReason: 'The function is being created.',
        StateReasonCode: 'Creating',
      });
    } else if (moment === 'updated') {
      Object.assign(configuration, {
        State: 'Active',
        LastUpdateStatus: 'InProgress',
        LastUpdateStatusReason: 'The function is being created.',
        LastUpdateStatusReasonCode: 'Creating',
      });
    } else {
      Object.assign(configuration, { State: 'Active', LastUpdateStatus: 'Successful' });
    }
    Object.assign(configuration, {
      PackageType: 'Zip',
      Architectures: [...record.architectures],
      EphemeralStorage: { Size: record.ephemeralStorage },
      SnapStart: { ApplyOn: 'None', OptimizationStatus: 'Off' },
      LoggingConfig: { LogFormat: 'Text', LogGroup: `/aws/lambda/${record.name}` },
    });
    return configuration;
  }
}

/** A handler whose module is not in the package fails as Lambda's Node.js runtime reports it. */
function missingModule(moduleName: string) {
  return async () => {
    throw new HandlerLoadError(
      'Runtime.ImportModuleError',
      `Error: Cannot find module '${moduleName}'\nRequire stack:\n- /var/runtime/index.mjs`,
    );
  };
}

/** Lambda's LastModified: ISO-8601 with milliseconds and a `+0000` offset. */
export function lambdaTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('Z', '+0000');
}
