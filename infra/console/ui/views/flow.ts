import { get } from '../api.js';
import { ChartSet, loadHistory } from '../charts.js';
import { fill, h, problem } from '../dom.js';
import { on } from '../live.js';
import { type Box, placeLabels } from './flowLabels.js';

interface FlowNode {
  id: string;
  kind: string;
  label: string;
  column: number;
}
interface FlowEdge {
  from: string;
  to: string;
  label: string;
  count: number;
  backlog: number;
  mappingUuid?: string;
  state?: string;
}

const SVG = 'http://www.w3.org/2000/svg';
const COLUMN_WIDTH = 280;
const NODE_WIDTH = 190;
const NODE_HEIGHT = 40;
const ROW_HEIGHT = 80;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * `#/flow`: tables → streams → mappings → functions → destinations, with the built-in
 * functions. Each arrow says its rate (the change of its count between two looks a second
 * apart, by this page's clock) and its backlog.
 */
export function renderFlow(element: HTMLElement): () => void {
  const body = h('div', { class: 'flow', 'data-testid': 'flow' });
  const chartsBox = h('div', { class: 'charts', 'data-testid': 'flow-charts' });
  fill(
    element,
    h('h2', {}, 'Flow'),
    h(
      'p',
      { class: 'muted' },
      'Each arrow: records per second · waiting. Click a mapping arrow for its batches.',
    ),
    body,
    h('h3', {}, 'Rates over the last five minutes (stack clock, one point a second)'),
    chartsBox,
  );
  const previous = new Map<string, { count: number; at: number }>();
  const labels = new Map<string, string>();
  const charts = new ChartSet(
    chartsBox,
    (edge) => `${labels.get(edge.from) ?? edge.from} → ${labels.get(edge.to) ?? edge.to}: ${edge.label}`,
  );

  const load = async () => {
    try {
      const [flow, history] = await Promise.all([
        get<{ nodes: FlowNode[]; edges: FlowEdge[] }>('flow'),
        loadHistory(),
      ]);
      for (const node of flow.nodes) labels.set(node.id, node.label);
      draw(flow.nodes, flow.edges);
      charts.show(history);
    } catch (error) {
      fill(body, problem(error));
    }
  };

  function draw(nodes: FlowNode[], edges: FlowEdge[]): void {
    if (nodes.length === 0) {
      fill(body, h('p', {}, 'No tables yet.'));
      return;
    }
    const rows = new Map<number, number>();
    const place = new Map<string, { x: number; y: number }>();
    for (const node of nodes) {
      const row = rows.get(node.column) ?? 0;
      rows.set(node.column, row + 1);
      place.set(node.id, { x: 20 + node.column * COLUMN_WIDTH, y: 20 + row * ROW_HEIGHT });
    }
    const height = 40 + Math.max(...rows.values()) * ROW_HEIGHT;
    const width = 40 + (Math.max(...nodes.map((node) => node.column)) + 1) * COLUMN_WIDTH;
    const picture = svg('svg', {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': 'Event flow',
    });
    const defs = svg('defs', {});
    const marker = svg('marker', {
      id: 'arrow',
      viewBox: '0 0 10 10',
      refX: 10,
      refY: 5,
      markerWidth: 6,
      markerHeight: 6,
      orient: 'auto-start-reverse',
    });
    marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }));
    defs.append(marker);
    picture.append(defs);
    const now = performance.now();
    const texts: { element: SVGTextElement; path: SVGPathElement }[] = [];
    const obstacles: Box[] = [...place.values()].map((at) => ({
      x: at.x,
      y: at.y,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
    }));
    for (const edge of edges) {
      const from = place.get(edge.from);
      const to = place.get(edge.to);
      if (from === undefined || to === undefined) continue;
      const key = `${edge.from}>${edge.to}>${edge.label}`;
      const last = previous.get(key);
      previous.set(key, { count: edge.count, at: now });
      const rate =
        last === undefined || now <= last.at ? 0 : ((edge.count - last.count) * 1000) / (now - last.at);
      const forward = to.x > from.x;
      const x1 = forward ? from.x + NODE_WIDTH : from.x;
      const x2 = forward ? to.x : to.x + NODE_WIDTH;
      const y1 = from.y + NODE_HEIGHT / 2;
      const y2 = to.y + NODE_HEIGHT / 2;
      const bend = forward ? 60 : -60;
      const group = svg('g', {
        class: `edge${edge.state === 'Disabled' ? ' disabled' : ''}`,
        'data-edge': key,
      });
      const path = svg('path', {
        d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`,
        'marker-end': 'url(#arrow)',
      });
      group.append(path);
      const label = `${edge.label}: ${rate.toFixed(rate < 10 ? 1 : 0)}/s · ${edge.backlog} waiting${edge.state === 'Disabled' ? ' · disabled' : ''}`;
      const text = svg('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2, 'text-anchor': 'middle' }, label);
      group.append(text);
      texts.push({ element: text, path });
      if (edge.mappingUuid !== undefined) {
        const link = svg('a', { href: `#/mappings/${edge.mappingUuid}` });
        link.append(group);
        picture.append(link);
      } else picture.append(group);
    }
    for (const node of nodes) {
      const at = place.get(node.id)!;
      const group = svg('g', { class: `node ${node.kind}`, 'data-node': node.id });
      group.append(svg('rect', { x: at.x, y: at.y, width: NODE_WIDTH, height: NODE_HEIGHT, rx: 6 }));
      group.append(svg('text', { x: at.x + 10, y: at.y + 16, class: 'kind' }, node.kind));
      group.append(
        svg(
          'text',
          { x: at.x + 10, y: at.y + 32 },
          node.label.length > 28 ? `${node.label.slice(0, 27)}…` : node.label,
        ),
      );
      const target = linkOf(node);
      if (target === undefined) picture.append(group);
      else {
        const link = svg('a', { href: target });
        link.append(group);
        picture.append(link);
      }
    }
    fill(body, picture);
    // Measured once in the page (the font decides the widths), then laid out clear of each other.
    placeLabels(picture, texts, obstacles);
  }

  void load();
  const stop = on('tick', () => void load());
  return () => {
    stop();
    charts.destroy();
  };
}

function linkOf(node: FlowNode): string | undefined {
  const name = node.id.slice(node.id.indexOf(':') + 1);
  if (node.kind === 'table') return `#/tables/${encodeURIComponent(name)}`;
  if (node.kind === 'stream') return `#/streams/${encodeURIComponent(node.label.replace(/ stream$/, ''))}`;
  if (node.kind === 'function') return `#/functions/${encodeURIComponent(name)}`;
  if (node.kind === 'destination') return '#/destinations';
  if (node.kind === 'ttl-expirer') return '#/ttl';
  return undefined;
}
