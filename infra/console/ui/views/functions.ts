import { get, post } from '../api.js';
import { fill, h, json, problem, table, time } from '../dom.js';
import { duration } from '../format.js';
import { on } from '../live.js';
import type { Invocation } from './mappings.js';
import { listTables } from './tables.js';

interface FunctionSummary {
  FunctionName: string;
  invocations: number;
  errors: number;
  retained: number;
  inFlight: number;
  lastInvokedAt?: number;
}

/** `#/functions`: every function with its counts. */
export function renderFunctions(element: HTMLElement): () => void {
  const body = h('div', {});
  fill(element, h('h2', {}, 'Functions'), body);
  const load = async () => {
    try {
      const { Functions } = await get<{ Functions: FunctionSummary[] }>('functions');
      fill(
        body,
        table(
          ['Function', 'Invocations', 'Errors (of the kept ones)', 'Running', 'Last invoked'],
          Functions.map((fn) => [
            h('a', { href: `#/functions/${encodeURIComponent(fn.FunctionName)}` }, fn.FunctionName),
            String(fn.invocations),
            String(fn.errors),
            String(fn.inFlight),
            time(fn.lastInvokedAt),
          ]),
          { 'data-testid': 'functions' },
        ),
      );
    } catch (error) {
      fill(body, problem(error));
    }
  };
  void load();
  return on('tick', () => void load());
}

/** `#/functions/<name>`: invocations (START/END/REPORT and the handler's lines), and Invoke. */
export function renderFunction(element: HTMLElement, functionName: string | undefined): () => void {
  const name = functionName ?? '';
  const outcome = h(
    'select',
    { name: 'outcome', onchange: () => void load() },
    h('option', { value: '' }, 'all'),
    h('option', { value: 'ok' }, 'succeeded'),
    h('option', { value: 'error' }, 'failed'),
  );
  const list = h('ol', { class: 'invocations', 'data-testid': 'invocations' });
  /** Request ids on the page: an invocation the list and the feed both bring shows once. */
  const shown = new Set<string>();
  const eventText = h('textarea', { name: 'event', rows: 8, cols: 60, 'aria-label': 'Event JSON' });
  eventText.value = '{}';
  const fromTable = h('select', { name: 'from-table' }, h('option', { value: '' }, 'a table…'));
  const result = h('div', { 'data-testid': 'invoke-result' });

  const invoke = async () => {
    try {
      const event = JSON.parse(eventText.value) as unknown;
      const answer = await post<{ ok?: boolean; result?: unknown; error?: unknown }>(
        `invoke/${encodeURIComponent(name)}`,
        { event },
      );
      fill(result, json(answer));
    } catch (error) {
      fill(result, problem(error));
    }
  };
  /** An INSERT record per item of the table's first page, as a stream mapping would deliver it. */
  const buildEvent = async () => {
    const tableName = fromTable.value;
    if (tableName === '') return;
    try {
      const answer = await post<{ Items: Record<string, unknown>[] }>(
        `tables/${encodeURIComponent(tableName)}/run`,
        {
          operation: 'Scan',
          input: { Limit: 10 },
        },
      );
      const tables = await listTables();
      const summary = tables.find((entry) => entry.TableName === tableName);
      const keyNames = (summary?.KeySchema ?? []).map((element) => element.AttributeName);
      const Records = answer.Items.map((item, index) => ({
        eventID: String(index + 1),
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'us-east-1',
        dynamodb: {
          Keys: Object.fromEntries(keyNames.map((key) => [key, item[key]])),
          NewImage: item,
          SequenceNumber: String(index + 1).padStart(21, '0'),
          StreamViewType: summary?.Stream?.viewType ?? 'NEW_AND_OLD_IMAGES',
        },
        eventSourceARN: summary?.Stream?.arn,
      }));
      eventText.value = JSON.stringify({ Records }, null, 2);
    } catch (error) {
      fill(result, problem(error));
    }
  };

  fill(
    element,
    h('h2', {}, name),
    h(
      'details',
      { class: 'invoke' },
      h('summary', {}, 'Invoke by hand'),
      h(
        'p',
        {},
        'Event from ',
        fromTable,
        h('button', { type: 'button', onclick: () => void buildEvent() }, 'Build event'),
        ' or write one:',
      ),
      eventText,
      h('div', {}, h('button', { type: 'button', onclick: () => void invoke() }, 'Invoke')),
      result,
    ),
    h('p', {}, 'Show ', outcome, ' invocations (newest first)'),
    list,
  );
  void listTables().then((tables) => {
    for (const entry of tables) fromTable.append(h('option', { value: entry.TableName }, entry.TableName));
  });

  async function load(): Promise<void> {
    try {
      const query = new URLSearchParams({ function: name });
      if (outcome.value !== '') query.set('outcome', outcome.value);
      const { Invocations } = await get<{ Invocations: Invocation[] }>(`invocations?${query}`);
      shown.clear();
      for (const invocation of Invocations) shown.add(invocation.requestId);
      fill(list, Invocations.map(invocationRow));
    } catch (error) {
      fill(list, problem(error));
    }
  }
  void load();
  return on('invocations', (data) => {
    const batch = data as { functionName: string; invocations: Invocation[] };
    if (batch.functionName !== name) return;
    for (const invocation of batch.invocations) {
      if (outcome.value !== '' && invocation.status !== outcome.value) continue;
      if (shown.has(invocation.requestId)) continue;
      shown.add(invocation.requestId);
      list.prepend(invocationRow(invocation));
    }
    while (list.childElementCount > 200) list.lastElementChild?.remove();
  });
}

function invocationRow(invocation: Invocation) {
  return h(
    'li',
    { class: `invocation ${invocation.status}`, 'data-status': invocation.status },
    h('span', { class: 'outcome' }, invocation.status === 'ok' ? 'OK' : 'ERROR'),
    ' ',
    h(
      'span',
      {},
      `${time(invocation.startedAt)} · `,
      h('span', { class: 'duration' }, duration(invocation.durationMs)),
      ` · ${invocation.records} records`,
    ),
    invocation.error === undefined
      ? undefined
      : h('div', { class: 'error' }, `${invocation.error.errorType}: ${invocation.error.errorMessage}`),
    invocation.batchItemFailures.length > 0
      ? h('div', { class: 'warn' }, `batchItemFailures: ${invocation.batchItemFailures.join(', ')}`)
      : undefined,
    h('pre', { class: 'logs' }, invocation.logs.join('\n')),
  );
}
