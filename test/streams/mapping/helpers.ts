import type { DynamoDBStreamEvent } from 'aws-lambda';
import { LocalDestinations } from '../../../infra/destinations/localDestinations.js';
import type { FunctionDefinition } from '../../../infra/functions/localFunction.js';
import { LocalFunctions } from '../../../infra/functions/localFunctions.js';
import type { ChangeLogOptions } from '../../../streams/changeLog.js';
import { MappingManager, type MappingManagerOptions } from '../../../streams/mapping/manager.js';
import type { CreateEventSourceMappingInput } from '../../../streams/mapping/settings.js';
import { createTable, fixture, latestStreamArn, type StreamsFixture } from '../helpers.js';

export const TABLE = 'Items';

/** An engine on a virtual clock with a change log, local functions, destinations and mappings. */
export interface MappingFixture extends StreamsFixture {
  readonly functions: LocalFunctions;
  readonly destinations: LocalDestinations;
  readonly manager: MappingManager;
  readonly errors: unknown[];
  /** The stream ARN of table `Items` (NEW_AND_OLD_IMAGES, hash key `pk` of type S). */
  readonly streamArn: string;
  /** Defines a function and maps table `Items`'s stream to it. Returns the mapping's UUID. */
  map(definition: FunctionDefinition, settings?: Partial<CreateEventSourceMappingInput>): string;
  put(pk: string, attributes?: Record<string, unknown>): void;
  /** Advances the virtual clock in steps until the mappings have nothing left to do. */
  run(step?: string, maxSteps?: number): Promise<void>;
}

export function mappingFixture(
  options: {
    changeLog?: ChangeLogOptions;
    manager?: Partial<MappingManagerOptions>;
    destinations?: LocalDestinations;
  } = {},
): MappingFixture {
  const base = fixture({ changeLog: { shardCount: 1, ...options.changeLog } });
  const functions = new LocalFunctions({ clock: base.clock });
  const destinations = options.destinations ?? new LocalDestinations();
  const errors: unknown[] = [];
  const manager = new MappingManager({
    changeLog: base.changeLog,
    functions,
    destinations,
    settler: base.engine,
    onError: (error) => errors.push(error),
    ...options.manager,
  });
  createTable(base.engine, TABLE, 'NEW_AND_OLD_IMAGES');
  const streamArn = latestStreamArn(base.engine, TABLE);
  return {
    ...base,
    functions,
    destinations,
    manager,
    errors,
    streamArn,
    map(definition, settings = {}) {
      functions.define(definition);
      return manager.create({
        FunctionName: definition.name,
        EventSourceArn: streamArn,
        StartingPosition: 'TRIM_HORIZON',
        ...settings,
      }).UUID;
    },
    put(pk, attributes = {}) {
      base.engine.execute('PutItem', { TableName: TABLE, Item: { pk: { S: pk }, ...attributes } });
    },
    async run(step = '1s', maxSteps = 10_000) {
      const done = () =>
        manager
          .inspect()
          .every(
            (mapping) => mapping.state !== 'Enabled' || (mapping.backlog === 0 && mapping.inFlight === 0),
          );
      for (let i = 0; i < maxSteps; i++) {
        // An invocation waiting for its timeout waits for the virtual clock: do not wait on it.
        await Promise.race([base.engine.settled(), until(() => done(), 20)]);
        if (done()) return;
        await base.clock.advance(step);
      }
      throw new Error('mappings did not drain');
    },
  };
}

/** Lets real time pass (macrotask turns) until `done()` holds or `turns` turns went by. */
export async function until(done: () => boolean, turns = 200): Promise<void> {
  for (let turn = 0; turn < turns && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** A handler that records the events it gets (a deep copy each) and returns `respond(event)`. */
export function recorder(respond: (event: DynamoDBStreamEvent, call: number) => unknown = () => undefined) {
  const events: DynamoDBStreamEvent[] = [];
  const handler = async (event: DynamoDBStreamEvent) => {
    events.push(structuredClone(event));
    return respond(event, events.length);
  };
  return { events, handler };
}

/** The `pk` values of an event's records. */
export const keysOf = (event: DynamoDBStreamEvent) =>
  event.Records.map((record) => record.dynamodb!.Keys!.pk!.S);
