import { get } from '../api.js';
import { fill, h, problem, table, time } from '../dom.js';
import { bytes } from '../format.js';
import { on } from '../live.js';

interface ArchiveSummary {
  format: string;
  prefix: string;
  Tables: {
    tableName: string;
    objects: number;
    records: number;
    bytes: number;
    lastKey: string;
    lastCreatedAt: number;
  }[];
}

/** `#/archive`: per archived table, the objects the archiver wrote and the newest one. */
export function renderArchive(element: HTMLElement): () => void {
  const body = h('div', {});
  fill(element, h('h2', {}, 'Archive'), body);
  const load = async () => {
    try {
      const { Archive } = await get<{ Archive: ArchiveSummary | null }>('archive');
      if (Archive === null) {
        fill(body, h('p', {}, 'This stack archives nothing (no archive in its config).'));
        return;
      }
      fill(
        body,
        h(
          'p',
          { class: 'muted' },
          `TTL deletions archived as ${Archive.format === 'json' ? 'DynamoDB JSON lines, gzipped' : 'Parquet'}${Archive.prefix === '' ? '' : ` under ${Archive.prefix}`}.`,
        ),
        table(
          ['Table', 'Objects', 'Records', 'Size', 'Newest object', 'Newest record'],
          Archive.Tables.map((entry) => [
            entry.tableName,
            String(entry.objects),
            String(entry.records),
            bytes(entry.bytes),
            entry.lastKey === '' ? '—' : h('code', {}, entry.lastKey),
            entry.lastCreatedAt === 0 ? '—' : time(entry.lastCreatedAt * 1000),
          ]),
          { 'data-testid': 'archive' },
        ),
      );
    } catch (error) {
      fill(body, problem(error));
    }
  };
  void load();
  return on('tick', () => void load());
}
