import { get, post } from '../api.js';
import { fill, h, json, problem, table } from '../dom.js';
import { type AttributeMap, bytes, duration, dynamo, keySchema, keyText, plain } from '../format.js';
import { on } from '../live.js';

export interface TableSummary {
  TableName: string;
  TableStatus: string;
  KeySchema: { AttributeName: string; KeyType: string }[];
  ItemCount: number;
  TableSizeBytes: number;
  GlobalSecondaryIndexes: {
    IndexName: string;
    IndexStatus: string;
    Backfilling: boolean;
    KeySchema: unknown;
    ItemCount: number;
    backlog: number;
    lagMs: number;
    backfill?: { done: number; total: number };
  }[];
  LocalSecondaryIndexes: { IndexName: string; KeySchema: unknown }[];
  TimeToLive: { status: string; attributeName?: string };
  Stream: { arn: string; viewType: string; enabled: boolean; records: number } | undefined;
}

export function listTables(): Promise<TableSummary[]> {
  return get<{ Tables: TableSummary[] }>('tables').then((answer) => answer.Tables);
}

/** `#/tables` (and `#/streams`): every table with its indexes, TTL and stream. */
export function renderTables(element: HTMLElement): () => void {
  const body = h('div', {});
  fill(element, h('h2', {}, 'Tables'), body);
  const load = async () => {
    try {
      const tables = await listTables();
      fill(
        body,
        tables.length === 0
          ? h('p', {}, 'No tables yet.')
          : table(
              ['Table', 'Key', 'Items', 'Size', 'Global indexes', 'TTL', 'Stream'],
              tables.map((entry) => [
                h('a', { href: `#/tables/${encodeURIComponent(entry.TableName)}` }, entry.TableName),
                keySchema(entry.KeySchema),
                String(entry.ItemCount),
                bytes(entry.TableSizeBytes),
                entry.GlobalSecondaryIndexes.map((index) =>
                  h(
                    'div',
                    { class: 'index' },
                    `${index.IndexName}: ${index.IndexStatus}`,
                    index.backfill !== undefined
                      ? h(
                          'span',
                          { class: 'backfill', 'data-testid': `backfill-${index.IndexName}` },
                          ` (backfilling: ${backfillText(index.backfill)})`,
                        )
                      : index.Backfilling
                        ? ' (backfilling)'
                        : '',
                    index.backlog > 0
                      ? `, ${index.backlog} behind (${duration(index.lagMs)})`
                      : ', caught up',
                  ),
                ),
                entry.TimeToLive.status === 'ENABLED' ? `on ${entry.TimeToLive.attributeName}` : 'off',
                entry.Stream === undefined || !entry.Stream.enabled
                  ? 'off'
                  : h(
                      'a',
                      { href: `#/streams/${encodeURIComponent(entry.TableName)}` },
                      `${entry.Stream.viewType}, ${entry.Stream.records} records`,
                    ),
              ]),
              { 'data-testid': 'tables' },
            ),
      );
    } catch (error) {
      fill(body, problem(error));
    }
  };
  void load();
  return on('tick', () => void load());
}

/** `2,000 / 5,000 items (40%)` */
function backfillText({ done, total }: { done: number; total: number }): string {
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} items (${percent}%)`;
}

type Mode = 'plain' | 'dynamodb';

/** `#/tables/<name>`: Query and Scan forms, paging, and items to view, edit, delete or add. */
export function renderTable(element: HTMLElement, tableName: string | undefined): undefined {
  const name = tableName ?? '';
  let summary: TableSummary | undefined;
  let mode: Mode = 'plain';
  let lastKey: AttributeMap | undefined;
  let items: AttributeMap[] = [];

  const info = h('p', { class: 'muted' });
  const operation = h(
    'select',
    { name: 'operation' },
    h('option', { value: 'Scan' }, 'Scan'),
    h('option', { value: 'Query' }, 'Query'),
  );
  const index = h('select', { name: 'index' }, h('option', { value: '' }, '(table)'));
  const keyCondition = h('input', { name: 'key-condition', placeholder: 'pk = :pk', size: 30 });
  const filter = h('input', { name: 'filter', placeholder: 'attribute_exists(#s)', size: 30 });
  const values = h('input', { name: 'values', placeholder: '{":pk": "a"}', size: 30 });
  const names = h('input', { name: 'names', placeholder: '{"#s": "status"}', size: 20 });
  const limit = h('input', { name: 'limit', type: 'number', min: 1, value: 25, size: 5 });
  const modeSelect = h(
    'select',
    {
      name: 'mode',
      onchange: () => {
        mode = modeSelect.value as Mode;
        showItems();
      },
    },
    h('option', { value: 'plain' }, 'plain JSON'),
    h('option', { value: 'dynamodb' }, 'DynamoDB JSON'),
  );
  const status = h('div', { class: 'status' });
  const results = h('div', { 'data-testid': 'items' });
  const more = h('button', { type: 'button', hidden: true, onclick: () => void run(lastKey) }, 'Next page');
  const editor = h('div', { class: 'editor' });

  const form = h(
    'form',
    {
      class: 'query',
      onsubmit: (event: Event) => {
        event.preventDefault();
        void run(undefined);
      },
    },
    h('label', {}, 'Operation ', operation),
    h('label', {}, 'Index ', index),
    h('label', {}, 'Key condition ', keyCondition),
    h('label', {}, 'Filter ', filter),
    h('label', {}, 'Values ', values),
    h('label', {}, 'Names ', names),
    h('label', {}, 'Limit ', limit),
    h('button', { type: 'submit' }, 'Run'),
    h('label', {}, ' Show as ', modeSelect),
    h('button', { type: 'button', onclick: () => edit(undefined) }, 'New item'),
  );
  fill(
    element,
    h(
      'h2',
      {},
      name,
      ' ',
      h('a', { href: `#/streams/${encodeURIComponent(name)}`, class: 'small' }, 'stream →'),
    ),
    info,
    form,
    editor,
    status,
    results,
    more,
  );

  const jsonField = (input: HTMLInputElement, what: string): Record<string, unknown> | undefined => {
    if (input.value.trim() === '') return undefined;
    const parsed = JSON.parse(input.value) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`${what} must be a JSON object`);
    return parsed as Record<string, unknown>;
  };

  /** Runs the form's request; `done` says what just happened (shown before the count). */
  async function run(startKey: AttributeMap | undefined, done = ''): Promise<void> {
    try {
      const input: Record<string, unknown> = { Limit: Number(limit.value) || 25 };
      if (index.value !== '') input.IndexName = index.value;
      if (operation.value === 'Query') input.KeyConditionExpression = keyCondition.value;
      if (filter.value.trim() !== '') input.FilterExpression = filter.value;
      const expressionValues = jsonField(values, 'Values');
      if (expressionValues !== undefined) input.ExpressionAttributeValues = dynamo(expressionValues);
      const expressionNames = jsonField(names, 'Names');
      if (expressionNames !== undefined) input.ExpressionAttributeNames = expressionNames;
      if (startKey !== undefined) input.ExclusiveStartKey = startKey;
      const answer = await post<{
        Items: AttributeMap[];
        LastEvaluatedKey?: AttributeMap;
        ScannedCount: number;
      }>(`tables/${encodeURIComponent(name)}/run`, { operation: operation.value, input });
      items = startKey === undefined ? answer.Items : [...items, ...answer.Items];
      lastKey = answer.LastEvaluatedKey;
      more.hidden = lastKey === undefined;
      fill(status, `${done}${items.length} items (scanned ${answer.ScannedCount} in the last page)`);
      showItems();
    } catch (error) {
      fill(status, problem(error));
    }
  }

  function showItems(): void {
    fill(
      results,
      table(
        ['Key', 'Item', ''],
        items.map((item) => [
          keyText(keyOf(item)),
          json(mode === 'plain' ? plain(item) : item),
          h(
            'span',
            { class: 'actions' },
            h('button', { type: 'button', onclick: () => edit(item) }, 'Edit'),
            h('button', { type: 'button', onclick: () => void remove(item) }, 'Delete'),
          ),
        ]),
      ),
    );
  }

  function keyOf(item: AttributeMap): AttributeMap {
    const key: AttributeMap = {};
    for (const element of summary?.KeySchema ?? []) key[element.AttributeName] = item[element.AttributeName];
    return key;
  }

  function edit(item: AttributeMap | undefined): void {
    const text = h('textarea', { name: 'item', rows: 10, cols: 60, 'aria-label': 'Item JSON' });
    text.value = JSON.stringify(item === undefined ? {} : mode === 'plain' ? plain(item) : item, null, 2);
    const save = async () => {
      try {
        const parsed = JSON.parse(text.value) as Record<string, unknown>;
        const Item = mode === 'plain' ? dynamo(parsed) : parsed;
        await post(`tables/${encodeURIComponent(name)}/run`, { operation: 'PutItem', input: { Item } });
        editor.replaceChildren();
        await run(undefined, 'Saved. ');
      } catch (error) {
        fill(status, problem(error));
      }
    };
    fill(
      editor,
      h(
        'h3',
        {},
        item === undefined ? 'New item' : `Edit ${keyText(keyOf(item))}`,
        ` (${mode === 'plain' ? 'plain JSON' : 'DynamoDB JSON'})`,
      ),
      text,
      h(
        'div',
        {},
        h('button', { type: 'button', onclick: () => void save() }, 'Save'),
        h('button', { type: 'button', onclick: () => editor.replaceChildren() }, 'Cancel'),
      ),
    );
    text.focus();
  }

  async function remove(item: AttributeMap): Promise<void> {
    try {
      await post(`tables/${encodeURIComponent(name)}/run`, {
        operation: 'DeleteItem',
        input: { Key: keyOf(item) },
      });
      await run(undefined, `Deleted ${keyText(keyOf(item))}. `);
    } catch (error) {
      fill(status, problem(error));
    }
  }

  void listTables().then((tables) => {
    summary = tables.find((candidate) => candidate.TableName === name);
    if (summary === undefined) {
      fill(element, problem(`No table named ${name}`));
      return;
    }
    fill(
      info,
      `Key ${keySchema(summary.KeySchema)} · ${summary.ItemCount} items · ${bytes(summary.TableSizeBytes)}`,
    );
    for (const entry of [...summary.GlobalSecondaryIndexes, ...summary.LocalSecondaryIndexes])
      index.append(h('option', { value: entry.IndexName }, entry.IndexName));
    void run(undefined);
  });
  return undefined;
}
