import type { Engine, TableChange } from '../../core/engine.js';
import type { MappingManager } from '../../streams/mapping/index.js';
import type {
  CreateEventSourceMappingInput,
  UpdateEventSourceMappingInput,
} from '../../streams/mapping/settings.js';
import { BindingError } from '../bindings.js';
import type { Logger } from '../host/logger.js';
import { bindingUuid } from './mappingCheckpoints.js';

/**
 * The event source mappings of the stack's stream bindings (the config's functions and the
 * archiver), which name a table rather than a stream ARN.
 *
 * A table's stream ARN changes when the table is deleted and created again, or its stream is
 * disabled and enabled again (a new stream, with a new label: docs/streams-and-lambda.md §1.1.8).
 * A mapping created by ARN stays on the old stream, as Lambda's does;
 * a binding declared by table name follows the table instead: its mapping moves to the new stream
 * from the binding's StartingPosition, and one log line says so.
 *
 * A binding can be held (its function's handler does not load yet, under `eddy serve --watch`):
 * its mapping exists, disabled, keeping its starting position, until `release`.
 */
export interface StreamBindingInput {
  readonly functionName: string;
  readonly tableName: string;
  /** CreateEventSourceMapping settings without EventSourceArn and FunctionName. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Where in the config the binding is (for errors). */
  readonly where: string;
}

interface Bound extends StreamBindingInput {
  readonly uuid: string;
  eventSourceArn: string;
}

export interface StreamBindingsOptions {
  readonly engine: Engine;
  readonly mappings: MappingManager;
  /**
   * Creates a mapping with its UUID (the stack's: with a data directory, it resumes from a saved
   * checkpoint of the same stream, or saves where it starts).
   */
  readonly createMapping: (input: CreateEventSourceMappingInput, uuid: string) => unknown;
  /** Whether the Lambda API enabled or disabled a config mapping (kept across restarts), if it did. */
  readonly enabledByApi?: (uuid: string) => boolean | undefined;
  readonly logger: Logger;
}

export class StreamBindings {
  private readonly bound: Bound[] = [];
  private readonly held = new Set<string>();
  private readonly detach: () => void;

  constructor(private readonly options: StreamBindingsOptions) {
    this.detach = options.engine.onTableChange((change) => this.follow(change));
  }

  /**
   * Creates a binding's mapping on its table's current stream. Its UUID is derived from the
   * function and table, so after a restart with a data directory it resumes from its checkpoint.
   * @throws BindingError when the table has no enabled stream, or Lambda would refuse the settings.
   */
  bind(input: StreamBindingInput): void {
    const table = this.options.engine.region().tables.get(input.tableName);
    if (table?.stream?.enabled !== true)
      throw new BindingError(
        input.where,
        `table '${input.tableName}' has no enabled stream (add StreamSpecification to the table)`,
      );
    const binding: Bound = {
      ...input,
      uuid: bindingUuid(input.functionName, input.tableName),
      eventSourceArn: table.stream.arn,
    };
    try {
      this.createMapping(binding);
    } catch (error) {
      // Settings Lambda would refuse (BatchSize 0, an unknown FunctionResponseType...): Lambda's message.
      throw new BindingError(
        input.where,
        `stream binding on '${input.tableName}': ${(error as Error).message}`,
      );
    }
    this.bound.push(binding);
  }

  /**
   * Deletes a binding's mapping and forgets it (gone from the stack under `--watch`, or bound
   * again on a replaced stream); nothing when it is not bound.
   */
  unbind(functionName: string, tableName: string): void {
    for (let index = this.bound.length - 1; index >= 0; index--) {
      const binding = this.bound[index]!;
      if (binding.functionName !== functionName || binding.tableName !== tableName) continue;
      this.bound.splice(index, 1);
      this.deleteMapping(binding.uuid);
    }
  }

  /** Deletes every mapping of a function that is gone, and forgets it was held. */
  unbindFunction(functionName: string): void {
    for (const binding of this.of(functionName)) this.unbind(functionName, binding.tableName);
    this.held.delete(functionName);
  }

  /**
   * Changes a binding's settings as UpdateEventSourceMapping does: the mapping goes on from where
   * it stopped with `changes` (the settings that differ, dropped ones back to their defaults);
   * `settings` are what it follows a new stream with from then on.
   */
  update(
    functionName: string,
    tableName: string,
    settings: Readonly<Record<string, unknown>>,
    changes: Readonly<Record<string, unknown>>,
  ): void {
    const index = this.bound.findIndex(
      (binding) => binding.functionName === functionName && binding.tableName === tableName,
    );
    const binding = this.bound[index];
    if (binding === undefined) return;
    this.bound[index] = { ...binding, settings };
    // A held function's mappings stay disabled: `release` applies its Enabled setting.
    const { Enabled, ...rest } = changes;
    const update = this.held.has(functionName) || Enabled === undefined ? rest : { ...rest, Enabled };
    if (Object.keys(update).length > 0)
      this.options.mappings.update({ UUID: binding.uuid, ...update } as UpdateEventSourceMappingInput);
  }

  /** Keeps a function's mappings disabled (its handler does not load) until `release`. */
  hold(functionName: string): void {
    this.held.add(functionName);
    for (const binding of this.of(functionName)) this.options.mappings.disable(binding.uuid);
  }

  /** Starts the mappings `hold` kept (those the config does not disable itself). */
  release(functionName: string): void {
    if (!this.held.delete(functionName)) return;
    for (const binding of this.of(functionName))
      if (this.enabledSetting(binding)) this.options.mappings.enable(binding.uuid);
  }

  /** Enabled as the Lambda API last set it, else as the config says (default true). */
  private enabledSetting(binding: Bound): boolean {
    return this.options.enabledByApi?.(binding.uuid) ?? binding.settings.Enabled !== false;
  }

  isHeld(functionName: string): boolean {
    return this.held.has(functionName);
  }

  /**
   * Forgets every binding, held or not (the test kit's `reset`, once the mappings are gone):
   * `bind` makes them again on the tables declared anew.
   */
  reset(): void {
    this.bound.length = 0;
    this.held.clear();
  }

  close(): void {
    this.detach();
  }

  private of(functionName: string): Bound[] {
    return this.bound.filter((binding) => binding.functionName === functionName);
  }

  private deleteMapping(uuid: string): void {
    try {
      this.options.mappings.delete(uuid);
    } catch {
      // Deleted through the Lambda API meanwhile: nothing left to delete.
    }
  }

  private createMapping(binding: Bound): void {
    this.options.createMapping(
      {
        ...binding.settings,
        StartingPosition: (binding.settings.StartingPosition as string | undefined) ?? 'TRIM_HORIZON',
        EventSourceArn: binding.eventSourceArn,
        FunctionName: binding.functionName,
        Enabled: !this.held.has(binding.functionName) && this.enabledSetting(binding),
      } as CreateEventSourceMappingInput,
      binding.uuid,
    );
  }

  /** A bound table has a new enabled stream: its bindings move to it. */
  private follow({ region, table }: TableChange): void {
    const engine = this.options.engine;
    if (region.accountId !== engine.defaultAccountId || region.name !== engine.defaultRegion) return;
    const stream = table.stream;
    if (stream?.enabled !== true || region.tables.get(table.name) !== table) return;
    for (const binding of this.bound) {
      if (binding.tableName !== table.name || binding.eventSourceArn === stream.arn) continue;
      const previous = binding.eventSourceArn;
      this.deleteMapping(binding.uuid);
      binding.eventSourceArn = stream.arn;
      try {
        this.createMapping(binding);
      } catch (error) {
        this.options.logger.error(
          { err: error, function: binding.functionName, table: binding.tableName },
          `${binding.functionName} ← ${binding.tableName}: could not follow the table's new stream`,
        );
        continue;
      }
      const from = (binding.settings.StartingPosition as string | undefined) ?? 'TRIM_HORIZON';
      this.options.logger.warn(
        { function: binding.functionName, table: binding.tableName, streamArn: stream.arn, previous },
        `${binding.functionName} ← ${binding.tableName}: the table has a new stream (recreated, or its stream enabled again); the binding follows it from ${from}`,
      );
    }
  }
}
