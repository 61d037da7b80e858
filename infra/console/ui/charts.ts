import uPlot from 'uplot';
import { get } from './api.js';
import { h } from './dom.js';

/** One arrow's history (`GET /_eddy/api/flow/history`, docs/console.md). */
export interface EdgeHistory {
  key: string;
  from: string;
  to: string;
  label: string;
  mappingUuid?: string;
  rates: (number | null)[];
  backlogs: (number | null)[];
}
export interface FlowHistory {
  intervalMs: number;
  capacity: number;
  times: number[];
  edges: EdgeHistory[];
}

export const loadHistory = () => get<FlowHistory>('flow/history');

const WIDTH = 360;
const HEIGHT = 150;

/** The page's colours, read from the style sheet (light or dark). */
function colour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/**
 * A rate chart of one arrow: records per second (left axis) and what waits (right axis) over the
 * history's five minutes, times in UTC (the stack clock's, which on the test kit is virtual).
 */
export class RateChart {
  readonly element: HTMLElement;
  private readonly plot: uPlot;

  constructor(title: string, key: string) {
    const area = h('div', { class: 'chart-area' });
    this.element = h('figure', { class: 'chart', 'data-chart': key }, h('figcaption', {}, title), area);
    const axis = { stroke: colour('--muted'), grid: { stroke: colour('--line'), width: 1 } };
    this.plot = new uPlot(
      {
        width: WIDTH,
        height: HEIGHT,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: true, live: false },
        cursor: { show: false },
        scales: { x: { time: true }, rate: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          {},
          { label: 'records/s', scale: 'rate', stroke: colour('--accent'), width: 1.5, spanGaps: false },
          { label: 'waiting', scale: 'backlog', stroke: colour('--warn'), width: 1, dash: [4, 3] },
        ],
        axes: [
          { ...axis, space: 60 },
          { ...axis, scale: 'rate', size: 44 },
          { ...axis, scale: 'backlog', side: 1, size: 44, grid: { show: false } },
        ],
      },
      [[], [], []],
      area,
    );
  }

  update(history: FlowHistory, edge: EdgeHistory): void {
    this.plot.setData([history.times.map((at) => at / 1000), edge.rates, edge.backlogs]);
  }

  destroy(): void {
    this.plot.destroy();
  }
}

/**
 * Keeps a chart per arrow in `container`, in the history's order: updates those it has, adds new
 * ones, drops those whose arrow is gone. `title` names an arrow, `pick` chooses the arrows shown.
 */
export class ChartSet {
  private readonly charts = new Map<string, RateChart>();

  constructor(
    readonly container: HTMLElement,
    private readonly title: (edge: EdgeHistory) => string,
    private readonly pick: (edge: EdgeHistory) => boolean = () => true,
  ) {}

  show(history: FlowHistory): void {
    const edges = history.edges.filter(this.pick);
    const keys = new Set(edges.map((edge) => edge.key));
    for (const [key, chart] of this.charts)
      if (!keys.has(key)) {
        chart.destroy();
        chart.element.remove();
        this.charts.delete(key);
      }
    for (const edge of edges) {
      let chart = this.charts.get(edge.key);
      if (chart === undefined) {
        chart = new RateChart(this.title(edge), edge.key);
        this.charts.set(edge.key, chart);
      }
      // Appending an element already there moves it: the order follows the history's.
      this.container.append(chart.element);
      chart.update(history, edge);
    }
  }

  destroy(): void {
    for (const chart of this.charts.values()) chart.destroy();
    this.charts.clear();
  }
}
