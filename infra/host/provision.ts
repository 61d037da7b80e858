import type { Logger } from 'pino';
import { addReplica } from '../../core/actions/replicaUpdates.js';
import type { Engine } from '../../core/engine.js';
import { DynamoDbError } from '../../core/errors/index.js';
import type { RequestContext } from '../../core/operation.js';
import { ReplicaMessages } from '../../core/validations/replicaUpdates.js';
import type { ReplicaConfig, TableConfig } from '../config.js';

/** A declared table that could not be set up: which one, at which step, and the service's error. */
export class TableSetupError extends Error {
  override readonly name = 'TableSetupError';
  constructor(
    readonly index: number,
    readonly tableName: string,
    readonly step: 'CreateTable' | 'UpdateTimeToLive' | 'UpdateTable',
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${step} of table '${tableName}' failed: ${reason}`, options);
  }
}

export interface ProvisionOptions {
  readonly logger: Logger;
  /** `warn` for the user's own tables (they asked for the setting), `debug` for the demo table. */
  readonly skippedStepLevel?: 'warn' | 'debug';
}

/**
 * Creates declared tables through the engine's own operations (so they are validated exactly as
 * a CreateTable call would be), then applies their TTL settings. A step whose operation this
 * build does not answer yet (UpdateTimeToLive before the TTL issue lands) is skipped with a log
 * line instead of failing the start.
 * @throws TableSetupError on the first table the engine refuses.
 */
export function provisionTables(
  engine: Engine,
  tables: readonly TableConfig[],
  context: RequestContext,
  options: ProvisionOptions,
): string[] {
  const created: string[] = [];
  const level = options.skippedStepLevel ?? 'warn';
  tables.forEach((table, index) => {
    const { TimeToLiveSpecification, Replicas, ...createTableInput } = table;
    const tableName = table.TableName ?? '';
    if (!engine.supports('CreateTable')) {
      throw new TableSetupError(
        index,
        tableName,
        'CreateTable',
        'CreateTable is not implemented in this build',
      );
    }
    run(engine, 'CreateTable', createTableInput, context, index, tableName);
    created.push(tableName);
    if (TimeToLiveSpecification !== undefined) {
      if (!engine.supports('UpdateTimeToLive')) {
        options.logger[level](
          { table: tableName },
          'TTL setting skipped: UpdateTimeToLive is not implemented yet',
        );
      } else {
        run(
          engine,
          'UpdateTimeToLive',
          { TableName: tableName, TimeToLiveSpecification },
          context,
          index,
          tableName,
        );
      }
    }
    if (Replicas !== undefined) provisionReplicas(engine, tableName, Replicas, context, index);
  });
  return created;
}

function run(
  engine: Engine,
  operation: 'CreateTable' | 'UpdateTimeToLive',
  input: object,
  context: RequestContext,
  index: number,
  tableName: string,
): void {
  try {
    // The answer is not read: `executeRaw` skips turning it into wire JSON (a stack's `reset`
    // provisions every table again, bench/startup.ts).
    engine.executeRaw(operation, input, context);
  } catch (error) {
    const reason = error instanceof DynamoDbError ? `${error.name}: ${error.message}` : String(error);
    throw new TableSetupError(index, tableName, operation, reason, { cause: error });
  }
}

/**
 * A declared global table's replicas (a template's `AWS::DynamoDB::GlobalTable`): made in their
 * regions of this eddy and filled, ACTIVE at once, as a deployed stack finds them
 * (docs/global-tables.md §1). A template's provisioned GlobalTable scales its writes
 * automatically, so the UpdateTable precondition on provisioned tables does not apply here.
 */
function provisionReplicas(
  engine: Engine,
  tableName: string,
  replicas: readonly ReplicaConfig[],
  context: RequestContext,
  index: number,
): void {
  const region = engine.region(context.accountId, context.region);
  const table = region.tables.get(tableName);
  if (table === undefined) return;
  for (const replica of replicas) {
    if (replica.RegionName === context.region) continue;
    const target = engine.region(context.accountId, replica.RegionName);
    if (target.tables.has(tableName) || table.replication?.member(replica.RegionName) !== undefined)
      throw new TableSetupError(
        index,
        tableName,
        'UpdateTable',
        `ValidationException: ${ReplicaMessages.alreadyExists(tableName)}`,
      );
    addReplica(engine, region, table, target, { ...replica }, 'ACTIVE');
  }
}
