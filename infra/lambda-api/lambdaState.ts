import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EventInvokeConfig, FunctionRecord } from './functionCatalog.js';
import type { FunctionSettings } from './functionSettings.js';

/**
 * What the Lambda API keeps across restarts in a data directory (`lambda/state.json`): the
 * functions it created (their settings and which unpacked package they run), the mappings it
 * created (as CreateEventSourceMapping input, so a restart creates the same mapping again; their
 * checkpoints live with every other mapping's, in the data directory's log) and the state of the
 * config's mappings that were disabled through the API.
 *
 * Small and rarely written (one file per API change), so each save writes a new file and renames
 * it over the old one after an fsync: a crash leaves either the old state or the new one
 * (docs/lambda-api.md §5.1).
 */
export interface LambdaState {
  readonly version: 1;
  readonly functions: readonly StoredFunction[];
  readonly mappings: readonly StoredMapping[];
  /** Config mappings disabled through the API, by UUID (their settings come from the config). */
  readonly disabledConfigMappings: readonly string[];
  /**
   * LastProcessingResult of every mapping when the state was last saved (at each API change and
   * at shutdown), so a restarted mapping does not read `No records processed` after it worked.
   */
  readonly lastProcessingResults: Readonly<Record<string, string>>;
  /** Reserved concurrency by function name, the config's functions' included (PutFunctionConcurrency). */
  readonly reservedConcurrency: Readonly<Record<string, number>>;
}

export interface StoredFunction {
  readonly name: string;
  readonly settings: FunctionSettings;
  /** The package's folder under the function's code folder, its hash and size. */
  readonly code: { readonly revision: string; readonly sha256: string; readonly size: number };
  readonly lastModified: number;
  readonly revisionId: string;
  readonly eventInvokeConfig: EventInvokeConfig | undefined;
}

export interface StoredMapping {
  readonly uuid: string;
  /** CreateEventSourceMapping's input that makes the mapping as it is now (Enabled included). */
  readonly input: Record<string, unknown>;
  /** LastModified, epoch ms. */
  readonly lastModified: number;
}

export const EMPTY_STATE: LambdaState = {
  version: 1,
  functions: [],
  mappings: [],
  disabledConfigMappings: [],
  lastProcessingResults: {},
  reservedConcurrency: {},
};

/** The settings part of a function record. */
export function settingsOf(record: FunctionRecord): FunctionSettings {
  return {
    runtime: record.runtime,
    role: record.role,
    handler: record.handler,
    description: record.description,
    timeout: record.timeout,
    memorySize: record.memorySize,
    environment: record.environment,
    deadLetterTarget: record.deadLetterTarget,
    tracingMode: record.tracingMode,
    architectures: record.architectures,
    ephemeralStorage: record.ephemeralStorage,
  };
}

/** The state file; `undefined` path: nothing is kept (no data directory). */
export class LambdaStateFile {
  constructor(readonly path: string | undefined) {}

  /**
   * The saved state, or the empty one when there is none yet.
   * @throws Error naming the file when it is not a state eddy wrote.
   */
  load(): LambdaState {
    if (this.path === undefined) return EMPTY_STATE;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_STATE;
      throw error;
    }
    const state = JSON.parse(text) as LambdaState;
    if (state?.version !== 1 || !Array.isArray(state.functions) || !Array.isArray(state.mappings))
      throw new Error(`${this.path} is not a Lambda state file eddy can read`);
    return { ...EMPTY_STATE, ...state };
  }

  /** Replaces the saved state, durably (write, fsync, rename, fsync the folder). */
  save(state: LambdaState): void {
    if (this.path === undefined) return;
    const temporary = `${this.path}.tmp`;
    mkdirSync(dirname(this.path), { recursive: true });
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, `${JSON.stringify(state, null, 1)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    const folder = openSync(dirname(this.path), 'r');
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  }
}
