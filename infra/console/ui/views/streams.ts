import { get } from '../api.js';
import { fill, h, problem, table, time } from '../dom.js';
import { type AttributeMap, diff, keyText } from '../format.js';
import { on } from '../live.js';

interface StreamRecord {
  eventID: string;
  eventName: string;
  dynamodb: {
    ApproximateCreationDateTime: number;
    Keys: AttributeMap;
    NewImage?: AttributeMap;
    OldImage?: AttributeMap;
    SequenceNumber: string;
  };
  userIdentity?: { type: string; principalId: string };
}

interface StreamSummary {
  StreamArn: string;
  StreamLabel: string;
  StreamViewType: string;
  enabled: boolean;
  head: number;
  end: number;
  Shards: {
    ShardId: string;
    ParentShardId?: string;
    StartingSequenceNumber: string;
    EndingSequenceNumber?: string;
    records: number;
  }[];
  Records: StreamRecord[];
}

/** Rows the tail keeps on the page. */
const TAIL_ROWS = 200;

/** `#/streams/<table>`: the stream's shards and lineage, and a live tail of its records. */
export function renderStream(element: HTMLElement, tableName: string | undefined): () => void {
  const name = tableName ?? '';
  const info = h('p', { class: 'muted' });
  const shards = h('div', {});
  const tail = h('ol', { class: 'tail', 'data-testid': 'tail' });
  const state = h('span', { class: 'status', 'data-testid': 'tail-state' }, 'live');
  const search = h('input', { name: 'key', placeholder: 'key text, e.g. order-7', size: 24 });
  /** Event ids on the page: a record the list and the feed both bring shows once. */
  const shown = new Set<string>();
  let paused = false;
  let searching = false;
  let missed = 0;

  const pause = h('button', { type: 'button', 'data-testid': 'pause', onclick: () => toggle() }, 'Pause');
  const toggle = () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    if (!paused) {
      missed = 0;
      void load();
    }
    showState();
  };
  const showState = () => {
    state.textContent = searching
      ? `records with "${search.value}"`
      : paused
        ? `paused, ${missed} new records waiting`
        : 'live';
  };

  fill(
    element,
    h(
      'h2',
      {},
      `${name} stream `,
      h('a', { href: `#/tables/${encodeURIComponent(name)}`, class: 'small' }, 'items →'),
    ),
    info,
    shards,
    h(
      'form',
      {
        class: 'controls',
        onsubmit: (event: Event) => {
          event.preventDefault();
          searching = search.value !== '';
          showState();
          void load();
        },
      },
      pause,
      ' ',
      search,
      h('button', { type: 'submit' }, 'Search by key'),
      ' ',
      state,
    ),
    tail,
  );

  async function load(): Promise<void> {
    try {
      const query = new URLSearchParams({ limit: '50' });
      if (searching) query.set('key', search.value);
      const summary = await get<StreamSummary>(`tables/${encodeURIComponent(name)}/stream?${query}`);
      fill(
        info,
        `${summary.StreamViewType} · ${summary.enabled ? 'enabled' : 'disabled'} · label ${summary.StreamLabel} · ${summary.end - summary.head} records retained`,
      );
      fill(
        shards,
        h('h3', {}, 'Shards'),
        table(
          ['Shard', 'Parent', 'Sequence numbers', 'Records'],
          summary.Shards.map((shard) => [
            shard.ShardId,
            shard.ParentShardId ?? '—',
            `${shard.StartingSequenceNumber} … ${shard.EndingSequenceNumber ?? '(open)'}`,
            String(shard.records),
          ]),
          { 'data-testid': 'shards' },
        ),
      );
      shown.clear();
      for (const record of summary.Records) shown.add(record.eventID);
      fill(tail, summary.Records.map(recordRow));
    } catch (error) {
      fill(info, problem(error));
    }
  }

  void load();
  return on('records', (data) => {
    const batch = data as { table: string; records: StreamRecord[]; skipped: number };
    if (batch.table !== name || searching) return;
    if (paused) {
      missed += batch.records.length + batch.skipped;
      showState();
      return;
    }
    if (batch.skipped > 0)
      tail.prepend(h('li', { class: 'skipped' }, `… ${batch.skipped} records sampled out`));
    for (const record of batch.records) {
      if (shown.has(record.eventID)) continue;
      shown.add(record.eventID);
      tail.prepend(recordRow(record));
    }
    while (tail.childElementCount > TAIL_ROWS) tail.lastElementChild?.remove();
  });
}

function recordRow(record: StreamRecord) {
  const changes = diff(record.dynamodb.OldImage, record.dynamodb.NewImage);
  return h(
    'li',
    { class: `record ${record.eventName.toLowerCase()}`, 'data-event': record.eventName },
    h('span', { class: 'event-name' }, record.eventName),
    ' ',
    h('span', { class: 'keys' }, keyText(record.dynamodb.Keys)),
    ' ',
    h(
      'span',
      { class: 'muted' },
      `#${record.dynamodb.SequenceNumber} · ${time(record.dynamodb.ApproximateCreationDateTime * 1000)}`,
    ),
    record.userIdentity === undefined
      ? undefined
      : h(
          'span',
          { class: 'identity' },
          ` by ${record.userIdentity.principalId} (${record.userIdentity.type}, TTL)`,
        ),
    changes.length === 0
      ? undefined
      : h(
          'ul',
          { class: 'diff' },
          changes.map((change) =>
            h(
              'li',
              {},
              h('b', {}, change.name),
              ': ',
              change.before === undefined ? '' : h('del', {}, change.before),
              change.before !== undefined && change.after !== undefined ? ' → ' : '',
              change.after === undefined ? '' : h('ins', {}, change.after),
            ),
          ),
        ),
  );
}
