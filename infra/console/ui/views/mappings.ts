import { get, post } from '../api.js';
import { ChartSet, loadHistory } from '../charts.js';
import { fill, h, json, problem, table, time } from '../dom.js';
import { duration } from '../format.js';
import { on } from '../live.js';

export interface Mapping {
  uuid: string;
  functionName: string;
  eventSourceArn: string;
  tableName?: string;
  state: string;
  lastProcessingResult: string;
  iteratorAgeMs: number;
  backlog: number;
  batches: number;
  invocations: number;
  recordsRead: number;
  recordsProcessed: number;
  recordsFiltered: number;
  recordsFailed: number;
  inProgress: number;
  retries: number;
  destinationCount: number;
  inFlight: number;
  shards: {
    shardId: string;
    processedThrough: string;
    /** The checkpoint is before the shard's first record: nothing of it was read. */
    nothingRead: boolean;
    finished: boolean;
    inProgress: number;
    unread: number;
    inFlight: BatchInFlight[];
  }[];
  internal: boolean;
  configuration?: Record<string, unknown>;
}

/** A batch being delivered (the inspection's `shards[].inFlight`). */
export interface BatchInFlight {
  batchSize: number;
  records: number;
  firstSequenceNumber: string;
  lastSequenceNumber: string;
  attempt: number;
  bisections: number;
  partsWaiting: number;
  invoking: boolean;
}

/**
 * `batch of 4 records, bisected: 2 of them (split 1×, 1 part waiting), #…1 … #…2, retry 1,
 * invoking the function`
 */
function inFlightText(batch: BatchInFlight): string {
  const what =
    batch.bisections === 0
      ? `batch of ${batch.records} records`
      : `batch of ${batch.batchSize} records, bisected: ${batch.records} of them (split ${batch.bisections}×, ${batch.partsWaiting} ${batch.partsWaiting === 1 ? 'part' : 'parts'} waiting)`;
  const range = `#${batch.firstSequenceNumber} … #${batch.lastSequenceNumber}`;
  const attempt = batch.attempt === 1 ? 'first attempt' : `retry ${batch.attempt - 1}`;
  return `${what}, ${range}, ${attempt}, ${batch.invoking ? 'invoking the function' : 'waiting to retry'}`;
}

export interface Invocation {
  requestId: string;
  functionName: string;
  startedAt: number;
  durationMs: number;
  status: 'ok' | 'error';
  error?: { errorType?: string; errorMessage?: string };
  result?: unknown;
  logs: string[];
  records: number;
  firstSequenceNumber?: string;
  lastSequenceNumber?: string;
  batchItemFailures: string[];
}

function settings(mapping: Mapping): string {
  const c = mapping.configuration ?? {};
  const parts = [`batch ${c.BatchSize ?? '?'}`];
  if (c.MaximumBatchingWindowInSeconds) parts.push(`window ${c.MaximumBatchingWindowInSeconds}s`);
  if (c.StartingPosition) parts.push(String(c.StartingPosition));
  if (c.MaximumRetryAttempts !== undefined) parts.push(`retries ${c.MaximumRetryAttempts}`);
  if (c.BisectBatchOnFunctionError) parts.push('bisect');
  if (c.ParallelizationFactor && c.ParallelizationFactor !== 1)
    parts.push(`parallel ${c.ParallelizationFactor}`);
  const filters = (c.FilterCriteria as { Filters?: { Pattern: string }[] } | undefined)?.Filters ?? [];
  if (filters.length > 0) parts.push(`filters ${filters.map((filter) => filter.Pattern).join(' | ')}`);
  const destination = (c.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined)?.OnFailure
    ?.Destination;
  if (destination) parts.push(`on failure → ${destination.slice(destination.lastIndexOf(':') + 1)}`);
  return parts.join(', ');
}

function toggleButton(mapping: Mapping, after: () => void) {
  if (mapping.internal) return h('span', { class: 'muted' }, 'built in');
  const enabled = mapping.state !== 'Disabled' && mapping.state !== 'Disabling';
  return h(
    'button',
    {
      type: 'button',
      'data-testid': `toggle-${mapping.uuid}`,
      onclick: async (event: Event) => {
        const button = event.currentTarget as HTMLButtonElement;
        button.disabled = true;
        try {
          await post(`event-source-mappings/${mapping.uuid}/enabled`, { enabled: !enabled });
        } catch (error) {
          button.after(problem(error));
        }
        after();
      },
    },
    enabled ? 'Disable' : 'Enable',
  );
}

/** `#/mappings`: every mapping, where it is and what it did, with enable/disable. */
export function renderMappings(element: HTMLElement): () => void {
  const body = h('div', {});
  fill(element, h('h2', {}, 'Event source mappings'), body);
  const load = async () => {
    try {
      const { Mappings } = await get<{ Mappings: Mapping[] }>('event-source-mappings');
      fill(
        body,
        Mappings.length === 0
          ? h('p', {}, 'No mappings.')
          : table(
              [
                'Function',
                'Source',
                'State',
                'Settings',
                'Iterator age',
                'Backlog',
                'In flight',
                'Retries',
                'Last result',
                'Records',
                '',
              ],
              Mappings.map((mapping) => [
                h('a', { href: `#/mappings/${mapping.uuid}` }, mapping.functionName),
                mapping.tableName ?? mapping.eventSourceArn,
                h('span', { 'data-testid': `state-${mapping.uuid}` }, mapping.state),
                settings(mapping),
                duration(mapping.iteratorAgeMs),
                String(mapping.backlog),
                String(mapping.inProgress),
                String(mapping.retries),
                mapping.lastProcessingResult,
                `${mapping.recordsProcessed} ok, ${mapping.recordsFailed} failed, ${mapping.recordsFiltered} filtered out`,
                toggleButton(mapping, () => void load()),
              ]),
              { 'data-testid': 'mappings' },
            ),
      );
    } catch (error) {
      fill(body, problem(error));
    }
  };
  void load();
  return on('tick', () => void load());
}

/** `#/mappings/<uuid>`: one mapping's state and its batches, with the records and responses. */
export function renderMapping(element: HTMLElement, uuid: string | undefined): () => void {
  const head = h('div', {});
  const batches = h('div', { 'data-testid': 'batches' });
  const chartBox = h('div', { class: 'charts', 'data-testid': 'mapping-chart' });
  fill(
    element,
    h('h2', {}, 'Mapping ', uuid ?? ''),
    head,
    h('h3', {}, 'Records read over the last five minutes'),
    chartBox,
    h('h3', {}, 'Batches (newest first)'),
    batches,
  );
  const charts = new ChartSet(
    chartBox,
    () => 'records read per second · waiting',
    (edge) => edge.mappingUuid === uuid,
  );
  const load = async () => {
    try {
      charts.show(await loadHistory());
      const { Mappings } = await get<{ Mappings: Mapping[] }>('event-source-mappings');
      const mapping = Mappings.find((candidate) => candidate.uuid === uuid);
      if (mapping === undefined) {
        fill(head, problem(`No mapping ${uuid}`));
        return;
      }
      fill(
        head,
        h(
          'p',
          {},
          `${mapping.tableName ?? mapping.eventSourceArn} → `,
          h('a', { href: `#/functions/${encodeURIComponent(mapping.functionName)}` }, mapping.functionName),
        ),
        h(
          'p',
          {},
          h('b', { 'data-testid': 'mapping-state' }, mapping.state),
          ` · ${settings(mapping)} · `,
          toggleButton(mapping, () => void load()),
        ),
        h(
          'p',
          { class: 'muted' },
          `iterator age ${duration(mapping.iteratorAgeMs)} · backlog ${mapping.backlog} · in flight ${mapping.inProgress} records in ${mapping.inFlight} invocations · retries ${mapping.retries} · to destination ${mapping.destinationCount} · last result ${mapping.lastProcessingResult}`,
        ),
      );
      head.append(
        table(
          ['Shard', 'Processed through', 'In flight', 'Unread'],
          mapping.shards.map((shard) => [
            shard.shardId,
            // Its checkpoint before its first record: nothing read, or what was read still in flight.
            shard.nothingRead
              ? h(
                  'span',
                  { class: 'muted' },
                  shard.inProgress > 0 ? 'nothing finished yet' : 'nothing read yet',
                )
              : shard.processedThrough || '—',
            String(shard.inProgress),
            shard.finished ? 'finished' : String(shard.unread),
          ]),
          { 'data-testid': 'mapping-shards' },
        ),
      );
      const inFlight = mapping.shards.flatMap((shard) =>
        shard.inFlight.map((batch) => ({ shardId: shard.shardId, batch })),
      );
      head.append(
        h('h3', {}, 'In flight'),
        inFlight.length === 0
          ? h('p', { class: 'muted', 'data-testid': 'in-flight' }, 'No batch being delivered.')
          : h(
              'ul',
              { 'data-testid': 'in-flight' },
              inFlight.map(({ shardId, batch }) =>
                h(
                  'li',
                  { class: batch.bisections > 0 || batch.attempt > 1 ? 'warn' : '' },
                  h('span', { class: 'muted' }, `${shardId}: `),
                  inFlightText(batch),
                ),
              ),
            ),
      );
      const { Batches } = await get<{ Batches: Invocation[] }>(`event-source-mappings/${uuid}/batches`);
      fill(
        batches,
        table(
          ['Started', 'Records', 'Sequence numbers', 'Duration', 'Result'],
          Batches.map((batch) => [
            time(batch.startedAt),
            String(batch.records),
            `${batch.firstSequenceNumber ?? ''} … ${batch.lastSequenceNumber ?? ''}`,
            h('span', { class: 'duration' }, duration(batch.durationMs)),
            batch.status === 'error'
              ? h('span', { class: 'error' }, `${batch.error?.errorType}: ${batch.error?.errorMessage}`)
              : batch.batchItemFailures.length > 0
                ? h('span', { class: 'warn' }, `partial failure from ${batch.batchItemFailures.join(', ')}`)
                : h(
                    'span',
                    {},
                    'ok',
                    batch.result === undefined || batch.result === null ? '' : json(batch.result),
                  ),
          ]),
        ),
      );
    } catch (error) {
      fill(head, problem(error));
    }
  };
  void load();
  const stop = on('tick', () => void load());
  return () => {
    stop();
    charts.destroy();
  };
}
