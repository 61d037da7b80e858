import { get, post } from './api.js';
import { type Child, fill, h, problem, time } from './dom.js';
import { on } from './live.js';
import { renderArchive } from './views/archive.js';
import { renderDestinations } from './views/destinations.js';
import { renderFlow } from './views/flow.js';
import { renderFunction, renderFunctions } from './views/functions.js';
import { renderMapping, renderMappings } from './views/mappings.js';
import { renderStream } from './views/streams.js';
import { renderTable, renderTables } from './views/tables.js';
import { renderTtl } from './views/ttl.js';

/**
 * The console's shell: a header with the views and the clock, and the view the URL's hash
 * names (`#/tables/Orders`, `#/streams/Orders`, `#/mappings/<uuid>`, `#/functions/<name>`...).
 * A view is a function that fills its element and answers how to stop (live listeners, timers).
 */
export type View = (element: HTMLElement, parameter: string | undefined) => (() => void) | undefined;

const VIEWS: Record<string, { title: string; list: View; item?: View }> = {
  flow: { title: 'Flow', list: renderFlow },
  tables: { title: 'Tables', list: renderTables, item: renderTable },
  streams: { title: 'Streams', list: renderTables, item: renderStream },
  mappings: { title: 'Mappings', list: renderMappings, item: renderMapping },
  functions: { title: 'Functions', list: renderFunctions, item: renderFunction },
  destinations: { title: 'Destinations', list: renderDestinations },
  ttl: { title: 'TTL', list: renderTtl },
  archive: { title: 'Archive', list: renderArchive },
};

const main = h('main', { id: 'view' });
const clock = h('span', { class: 'clock', 'data-testid': 'clock' });
const clockButtons = h('span', { class: 'clock-buttons' });
const nav = h(
  'nav',
  {},
  Object.entries(VIEWS).map(([key, view]) => h('a', { href: `#/${key}`, 'data-view': key }, view.title)),
);
let stop: (() => void) | undefined;

function route(): void {
  stop?.();
  stop = undefined;
  const [name = 'flow', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  const parameter = rest.length > 0 ? decodeURIComponent(rest.join('/')) : undefined;
  const view = VIEWS[name] ?? VIEWS.flow!;
  for (const link of nav.querySelectorAll('a'))
    link.toggleAttribute('aria-current', link.getAttribute('data-view') === name);
  main.replaceChildren();
  main.setAttribute('data-view', name);
  try {
    stop = (parameter !== undefined && view.item !== undefined ? view.item : view.list)(main, parameter);
  } catch (error) {
    fill(main, problem(error));
  }
}

function showClock(now: number, virtual: boolean): void {
  clock.textContent = `${virtual ? 'virtual time' : 'time'} ${time(now)}`;
  if (!virtual || clockButtons.childElementCount > 0) return;
  const step = (label: string, ms: number) =>
    h(
      'button',
      {
        type: 'button',
        onclick: async () => {
          try {
            const { now: moved } = await post<{ now: number }>('clock/advance', { ms });
            showClock(moved, true);
          } catch (error) {
            clock.textContent = String(error);
          }
        },
      },
      label,
    );
  fill(
    clockButtons,
    step('+1 s', 1_000),
    step('+1 min', 60_000),
    step('+1 h', 3_600_000),
    step('+1 day', 86_400_000),
  );
}

async function start(): Promise<void> {
  const header: Child = h(
    'header',
    {},
    h('h1', {}, 'eddy'),
    nav,
    h('div', { class: 'clock-box' }, clock, clockButtons),
  );
  document.body.append(header, main);
  const overview = await get<{ now: number; virtualClock: boolean; region: string; accountId: string }>(
    'overview',
  );
  showClock(overview.now, overview.virtualClock);
  on('tick', (data) => {
    const tick = data as { now: number; virtual: boolean };
    showClock(tick.now, tick.virtual);
  });
  window.addEventListener('hashchange', route);
  route();
}

void start();
