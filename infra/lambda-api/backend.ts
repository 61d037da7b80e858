import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { EventSourceMappingConfiguration } from '../../streams/mapping/configuration.js';
import type { EventSourceMapping } from '../../streams/mapping/eventSourceMapping.js';
import type { MappingManager } from '../../streams/mapping/manager.js';
import type {
  CreateEventSourceMappingInput,
  UpdateEventSourceMappingInput,
} from '../../streams/mapping/settings.js';
import type { LocalDestinations } from '../destinations/localDestinations.js';
import type { LocalFunctions } from '../functions/localFunctions.js';
import { AsyncInvocations } from './asyncInvocations.js';
import { type EventInvokeConfig, FunctionCatalog, type FunctionRecord } from './functionCatalog.js';
import type { FunctionSettings } from './functionSettings.js';
import { type LambdaState, LambdaStateFile, type StoredFunction, settingsOf } from './lambdaState.js';

export interface LambdaBackendOptions {
  readonly functions: LocalFunctions;
  readonly mappings: MappingManager;
  readonly destinations: LocalDestinations;
  readonly clock: Clock;
  readonly accountId: string;
  readonly region: string;
  /**
   * The data directory's folder for the Lambda API (state file and packages); undefined: the
   * packages go to a temporary folder removed at `close`, and nothing is kept.
   */
  readonly directory?: string;
  /**
   * Creates a mapping the way the host creates the config's (with its checkpoints: a mapping
   * the state file brings back resumes where it stopped). Default: `mappings.create`.
   */
  readonly createMapping?: (
    input: CreateEventSourceMappingInput,
    uuid: string,
  ) => EventSourceMappingConfiguration;
  /** A mapping was deleted: its saved checkpoints can go. */
  readonly forgetMapping?: (uuid: string) => void;
  /** Registers `drained()` of asynchronous invocations with `engine.settled()`. */
  readonly settler?: { addSettler(settle: () => Promise<void>): () => void };
  readonly onError?: (error: unknown, context: string) => void;
  /** Things the state file names that cannot come back (a package gone, a stream expired). */
  readonly onWarning?: (message: string) => void;
}

/**
 * The state behind the Lambda API of one eddy: its functions (`FunctionCatalog`), the one
 * mapping manager every mapping lives in (the config's and the API's alike), asynchronous
 * invocations, and what a data directory keeps of the API's changes (`LambdaStateFile`). The
 * operations (`operations/*.ts`) call it; each change it makes is saved before the answer.
 */
export class LambdaBackend {
  readonly catalog: FunctionCatalog;
  readonly async: AsyncInvocations;
  readonly accountId: string;
  readonly region: string;
  private readonly stateFile: LambdaStateFile;
  private readonly saved: LambdaState;
  private readonly codeRoot: string;
  private readonly temporary: boolean;
  /** UUIDs of the mappings created through the API (the others are the config's). */
  private readonly apiMappings = new Set<string>();
  /** The config's mappings disabled through the API. */
  private readonly disabledConfigMappings: Set<string>;
  private readonly unregister: (() => void) | undefined;

  constructor(private readonly options: LambdaBackendOptions) {
    this.accountId = options.accountId;
    this.region = options.region;
    this.temporary = options.directory === undefined;
    this.codeRoot =
      options.directory === undefined
        ? mkdtempSync(join(tmpdir(), 'eddy-lambda-'))
        : join(options.directory, 'functions');
    this.stateFile = new LambdaStateFile(
      options.directory === undefined ? undefined : join(options.directory, 'state.json'),
    );
    this.saved = this.stateFile.load();
    this.disabledConfigMappings = new Set(this.saved.disabledConfigMappings);
    this.catalog = new FunctionCatalog({
      functions: options.functions,
      clock: options.clock,
      accountId: options.accountId,
      region: options.region,
      codeRoot: this.codeRoot,
    });
    this.async = new AsyncInvocations({
      clock: options.clock,
      functions: options.functions,
      catalog: this.catalog,
      destinations: options.destinations,
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    this.unregister = options.settler?.addSettler(() => this.async.drained());
  }

  get mappings(): MappingManager {
    return this.options.mappings;
  }

  get functions(): LocalFunctions {
    return this.options.functions;
  }

  get clock(): Clock {
    return this.options.clock;
  }

  /**
   * For the host creating the config's mappings: `false` when the API disabled this one before
   * the restart (it is created disabled and stays where it stopped); otherwise undefined.
   */
  configMappingEnabled(uuid: string): false | undefined {
    return this.disabledConfigMappings.has(uuid) ? false : undefined;
  }

  /**
   * Back to the config's functions and mappings (the test kit's `reset`, once the stack deleted
   * every mapping): the functions created through the API are deleted, the API's mappings and
   * the config mappings it disabled forgotten, waiting retries dropped. In-memory stacks only.
   */
  reset(): void {
    for (const record of this.catalog.apiRecords()) this.catalog.delete(record.name);
    this.apiMappings.clear();
    this.disabledConfigMappings.clear();
    this.options.functions.concurrency.clear();
    this.async.clear();
  }

  /**
   * Brings back what the state file holds: the API's functions (after the config's, which win a
   * name both use), then the API's mappings, from their checkpoints.
   */
  restore(): void {
    for (const stored of this.saved.functions) this.restoreFunction(stored);
    for (const [name, reserved] of Object.entries(this.saved.reservedConcurrency)) {
      if (this.options.functions.get(name) !== undefined)
        this.options.functions.concurrency.set(name, reserved);
    }
    for (const stored of this.saved.mappings) {
      try {
        this.createMappingWith(stored.input as unknown as CreateEventSourceMappingInput, stored.uuid);
        this.options.mappings.mapping(stored.uuid).lastModified = stored.lastModified;
        this.apiMappings.add(stored.uuid);
      } catch (error) {
        this.options.onWarning?.(
          `event source mapping ${stored.uuid} cannot be restored: ${(error as Error).message}`,
        );
      }
    }
    for (const [uuid, result] of Object.entries(this.saved.lastProcessingResults)) {
      try {
        const counters = this.options.mappings.mapping(uuid).counters;
        if (counters.lastProcessingResult === 'No records processed') counters.lastProcessingResult = result;
      } catch {
        // A mapping the config no longer declares.
      }
    }
    this.save();
  }

  private restoreFunction(stored: StoredFunction): void {
    if (this.options.functions.get(stored.name) !== undefined) {
      this.options.onWarning?.(
        `function ${stored.name} created through the Lambda API is not restored: the config declares a function of that name`,
      );
      return;
    }
    const directory = join(this.codeRoot, stored.name, stored.code.revision);
    if (!existsSync(directory)) {
      this.options.onWarning?.(
        `function ${stored.name} is not restored: its package is missing (${directory})`,
      );
      return;
    }
    this.catalog.restore({
      ...stored.settings,
      name: stored.name,
      origin: 'api',
      code: { directory, zipFile: `${directory}.zip`, sha256: stored.code.sha256, size: stored.code.size },
      lastModified: stored.lastModified,
      revisionId: stored.revisionId,
      eventInvokeConfig: stored.eventInvokeConfig,
    });
  }

  createFunction(name: string, settings: FunctionSettings, zip: Uint8Array): FunctionRecord {
    return this.saving(() => this.catalog.create(name, settings, zip));
  }

  updateFunctionCode(name: string, zip: Uint8Array): FunctionRecord {
    return this.saving(() => this.catalog.updateCode(name, zip));
  }

  updateFunctionSettings(name: string, settings: FunctionSettings): FunctionRecord {
    return this.saving(() => this.catalog.updateSettings(name, settings));
  }

  setEventInvokeConfig(name: string, config: EventInvokeConfig | undefined): FunctionRecord {
    return this.saving(() => this.catalog.setEventInvokeConfig(name, config));
  }

  deleteFunction(name: string): void {
    this.saving(() => this.catalog.delete(name));
  }

  /** Put/DeleteFunctionConcurrency (undefined: back to the unreserved pool). */
  setReservedConcurrency(name: string, reserved: number | undefined): void {
    this.saving(() => this.options.functions.concurrency.set(name, reserved));
  }

  /** CreateEventSourceMapping through the API. */
  createMapping(input: CreateEventSourceMappingInput, uuid: string): EventSourceMappingConfiguration {
    return this.saving(() => {
      const answer = this.createMappingWith(input, uuid);
      this.apiMappings.add(answer.UUID);
      // Creating for a moment, as in Lambda (docs/lambda-api.md §4.7); a restored one is not new.
      this.options.mappings.beginTransition(answer.UUID, 'Creating');
      return answer;
    });
  }

  /** UpdateEventSourceMapping: a config mapping keeps only its Enabled state across restarts. */
  updateMapping(input: UpdateEventSourceMappingInput): EventSourceMappingConfiguration {
    return this.saving(() => {
      // Built-in functions' internal mappings are not the API's: not found, as in `get`.
      this.options.mappings.get(input.UUID);
      this.options.mappings.assertSettled(input.UUID, 'update');
      const answer = this.options.mappings.update(input);
      this.options.mappings.beginTransition(answer.UUID, answer.State);
      if (!this.apiMappings.has(answer.UUID)) {
        if (this.options.mappings.mapping(answer.UUID).settings.enabled)
          this.disabledConfigMappings.delete(answer.UUID);
        else this.disabledConfigMappings.add(answer.UUID);
      }
      return answer;
    });
  }

  /** DeleteEventSourceMapping (a config mapping comes back at the next start: the config declares it). */
  deleteMapping(uuid: string): EventSourceMappingConfiguration {
    return this.saving(() => {
      this.options.mappings.get(uuid);
      this.options.mappings.assertSettled(uuid, 'delete');
      const answer = this.options.mappings.delete(uuid, { linger: true });
      this.apiMappings.delete(uuid);
      this.disabledConfigMappings.delete(uuid);
      this.options.forgetMapping?.(uuid);
      return answer;
    });
  }

  private createMappingWith(
    input: CreateEventSourceMappingInput,
    uuid: string,
  ): EventSourceMappingConfiguration {
    return this.options.createMapping !== undefined
      ? this.options.createMapping(input, uuid)
      : this.options.mappings.create(input, { uuid });
  }

  /** Runs a change, then saves the state (before the operation answers). */
  private saving<T>(change: () => T): T {
    const result = change();
    this.save();
    return result;
  }

  private save(): void {
    if (this.stateFile.path === undefined) return;
    const mappings = [...this.apiMappings].flatMap((uuid) => {
      let mapping: EventSourceMapping;
      try {
        mapping = this.options.mappings.mapping(uuid);
      } catch {
        return [];
      }
      return [{ uuid, input: mappingInput(mapping), lastModified: mapping.lastModified }];
    });
    this.stateFile.save({
      version: 1,
      functions: this.catalog.apiRecords().map((record) => ({
        name: record.name,
        settings: settingsOf(record),
        code: {
          revision: basename(record.code!.directory),
          sha256: record.code!.sha256,
          size: record.code!.size,
        },
        lastModified: record.lastModified,
        revisionId: record.revisionId,
        eventInvokeConfig: record.eventInvokeConfig,
      })),
      mappings,
      disabledConfigMappings: [...this.disabledConfigMappings],
      reservedConcurrency: Object.fromEntries(this.options.functions.concurrency.entries()),
      lastProcessingResults: Object.fromEntries(
        this.listedMappings().map((mapping) => [mapping.UUID, mapping.LastProcessingResult]),
      ),
    });
  }

  /** Every mapping ListEventSourceMappings shows (the config's and the API's), every page. */
  listedMappings(): EventSourceMappingConfiguration[] {
    const all: EventSourceMappingConfiguration[] = [];
    for (let page = this.options.mappings.list(); ; ) {
      all.push(...page.EventSourceMappings);
      if (page.NextMarker === undefined) return all;
      page = this.options.mappings.list({ Marker: page.NextMarker });
    }
  }

  /** Saves the last state (the mappings' last results) and drops queued retries. */
  close(): void {
    try {
      this.save();
    } catch (error) {
      this.options.onError?.(error, 'saving the Lambda API state');
    }
    this.async.close();
    this.unregister?.();
    if (this.temporary) rmSync(this.codeRoot, { recursive: true, force: true });
  }
}

/** The CreateEventSourceMapping input that makes a mapping as it is now. */
export function mappingInput(mapping: EventSourceMapping): Record<string, unknown> {
  const settings = mapping.settings;
  const input: Record<string, unknown> = {
    FunctionName: mapping.fn.functionName,
    EventSourceArn: mapping.eventSourceArn,
    StartingPosition: settings.startingPosition,
    Enabled: settings.enabled,
    BatchSize: settings.batchSize,
    MaximumBatchingWindowInSeconds: settings.maximumBatchingWindowInSeconds,
    ParallelizationFactor: settings.parallelizationFactor,
    MaximumRecordAgeInSeconds: settings.maximumRecordAgeInSeconds,
    MaximumRetryAttempts: settings.maximumRetryAttempts,
    BisectBatchOnFunctionError: settings.bisectBatchOnFunctionError,
    TumblingWindowInSeconds: settings.tumblingWindowInSeconds,
    FunctionResponseTypes: settings.reportBatchItemFailures ? ['ReportBatchItemFailures'] : [],
  };
  if (settings.filterPatterns.length > 0)
    input.FilterCriteria = { Filters: settings.filterPatterns.map((Pattern) => ({ Pattern })) };
  if (settings.onFailureDestination !== undefined)
    input.DestinationConfig = { OnFailure: { Destination: settings.onFailureDestination } };
  return input;
}
