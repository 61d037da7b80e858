import { get } from '../api.js';
import { fill, h, json, problem, table, time } from '../dom.js';
import { type AttributeMap, duration, keyText } from '../format.js';
import { on } from '../live.js';

interface TtlStatus {
  rateMs: number;
  nextRunAt?: number;
  lastRun?: { deleted?: number };
  totals: { runs: number; deleted: number };
  tables: { tableArn: string; attributeName: string; tracked: number; expiredNow: number }[];
}

/** `#/ttl`: the ttl-expirer's schedule, its runs, and per table what is due. */
export function renderTtl(element: HTMLElement): () => void {
  const body = h('div', {});
  fill(element, h('h2', {}, 'TTL'), body);
  const load = async () => {
    try {
      const { Ttl, RecentDeletions } = await get<{
        Ttl: TtlStatus | null;
        RecentDeletions: {
          table: string;
          record: { dynamodb: { Keys: AttributeMap; ApproximateCreationDateTime: number } };
        }[];
      }>('ttl');
      if (Ttl === null) {
        fill(body, h('p', {}, 'No ttl-expirer runs in this stack.'));
        return;
      }
      fill(
        body,
        h(
          'p',
          {},
          `Runs every ${duration(Ttl.rateMs)}; next at ${time(Ttl.nextRunAt)}; ${Ttl.totals.runs} runs deleted ${Ttl.totals.deleted} items.`,
        ),
        table(
          ['Table', 'Attribute', 'Items with a TTL', 'Expired now (deleted on the next runs)'],
          Ttl.tables.map((entry) => [
            entry.tableArn.slice(entry.tableArn.indexOf(':table/') + 7),
            entry.attributeName,
            String(entry.tracked),
            String(entry.expiredNow),
          ]),
        ),
        h('h3', {}, 'Latest TTL deletions'),
        RecentDeletions.length === 0
          ? h('p', { class: 'muted' }, 'None in the streams yet.')
          : table(
              ['Table', 'Keys', 'Deleted at'],
              RecentDeletions.map((deletion) => [
                h('a', { href: `#/streams/${encodeURIComponent(deletion.table)}` }, deletion.table),
                keyText(deletion.record.dynamodb.Keys),
                time(deletion.record.dynamodb.ApproximateCreationDateTime * 1000),
              ]),
              { 'data-testid': 'ttl-deletions' },
            ),
        Ttl.lastRun === undefined
          ? undefined
          : h('details', {}, h('summary', {}, 'Last run'), json(Ttl.lastRun)),
        h(
          'p',
          { class: 'muted' },
          'TTL deletions show in the stream tail as REMOVE records by dynamodb.amazonaws.com.',
        ),
      );
    } catch (error) {
      fill(body, problem(error));
    }
  };
  void load();
  return on('tick', () => void load());
}
