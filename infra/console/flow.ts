import { listMappings } from './mappings.js';
import type { ConsoleSources } from './sources.js';
import { listTables } from './tables.js';

/** A box of the flow diagram. */
export interface FlowNode {
  readonly id: string;
  readonly kind: 'table' | 'stream' | 'function' | 'destination' | 'ttl-expirer';
  readonly label: string;
  /** Columns left to right: 0 tables, 1 streams, 2 functions, 3 destinations. */
  readonly column: number;
}

/**
 * An arrow: `count` is cumulative (the page turns two snapshots into a rate), `backlog` what
 * waits on it now (records not yet done by a mapping, changes not yet in an index).
 */
export interface FlowEdge {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly count: number;
  readonly backlog: number;
  /** The mapping behind the edge, for a link to its view. */
  readonly mappingUuid?: string;
  readonly state?: string;
}

export interface Flow {
  /** The stack clock's time of the snapshot, ms. */
  readonly at: number;
  readonly nodes: FlowNode[];
  readonly edges: FlowEdge[];
}

/**
 * `GET /_eddy/api/flow`: tables → streams → mappings → functions → destinations, plus the
 * built-in functions (gsi-maintainer on the internal feed, ttl-expirer deleting from tables,
 * archivers on streams), each arrow with its running count and backlog.
 */
export function flowOf(sources: ConsoleSources): Flow {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const seen = new Set<string>();
  const node = (entry: FlowNode) => {
    if (seen.has(entry.id)) return;
    seen.add(entry.id);
    nodes.push(entry);
  };
  for (const table of listTables(sources)) {
    const tableId = `table:${table.TableName}`;
    node({ id: tableId, kind: 'table', label: table.TableName, column: 0 });
    if (table.Stream !== undefined) {
      const streamId = `stream:${table.Stream.arn}`;
      node({ id: streamId, kind: 'stream', label: `${table.TableName} stream`, column: 1 });
      edges.push({ from: tableId, to: streamId, label: 'changes', count: table.Stream.records, backlog: 0 });
    }
  }
  for (const mapping of listMappings(sources)) {
    const internalFeed = mapping.eventSourceArn.endsWith('/internal-feed');
    const tableName = mapping.tableName ?? /:table\/([^/]+)/.exec(mapping.eventSourceArn)?.[1];
    const from =
      internalFeed || mapping.tableName === undefined
        ? `table:${tableName}`
        : `stream:${mapping.eventSourceArn}`;
    const functionId = `function:${mapping.functionName}`;
    node({ id: functionId, kind: 'function', label: mapping.functionName, column: 2 });
    edges.push({
      from,
      to: functionId,
      label: internalFeed ? 'internal feed' : `mapping ${mapping.uuid.slice(0, 8)}`,
      count: mapping.recordsRead,
      backlog: mapping.backlog,
      mappingUuid: mapping.uuid,
      state: mapping.state,
    });
    const destination = (
      mapping.configuration?.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined
    )?.OnFailure?.Destination;
    if (destination !== undefined && destination !== '') {
      const destinationId = `destination:${destination}`;
      node({
        id: destinationId,
        kind: 'destination',
        label: destination.slice(destination.lastIndexOf(':') + 1),
        column: 3,
      });
      edges.push({
        from: functionId,
        to: destinationId,
        label: 'on failure',
        count: mapping.destinationCount,
        backlog: 0,
      });
    }
  }
  const ttl = sources.ttl();
  if (ttl !== undefined) {
    const status = ttl.status();
    if (status.tables.length > 0) {
      node({ id: 'ttl-expirer', kind: 'ttl-expirer', label: 'ttl-expirer', column: 2 });
      for (const table of status.tables) {
        const tableName = table.tableArn.slice(table.tableArn.indexOf(':table/') + 7);
        edges.push({
          from: 'ttl-expirer',
          to: `table:${tableName}`,
          label: 'TTL deletes',
          // This table's deletions, not the expirer's total across tables.
          count: table.deleted,
          backlog: table.expiredNow,
        });
      }
    }
  }
  return { at: sources.clock.now(), nodes, edges };
}
