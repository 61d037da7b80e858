import type { Clock, TimerHandle } from '../../core/clock.js';
import { type FlowEdge, flowOf } from './flow.js';
import type { ConsoleSources } from './sources.js';

/** One sample a second of the stack's clock. */
export const HISTORY_INTERVAL_MS = 1_000;
/** Samples kept per edge: five minutes at one a second. */
export const HISTORY_POINTS = 300;

/** An arrow's key, as the diagram names it (`from>to>label`). */
export const edgeKey = (edge: Pick<FlowEdge, 'from' | 'to' | 'label'>) =>
  `${edge.from}>${edge.to}>${edge.label}`;

/** One arrow's history, oldest first, aligned with `times` (null before the arrow existed). */
export interface EdgeHistory {
  readonly key: string;
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly mappingUuid?: string;
  /** Records per second over the interval that ends at the matching time. */
  readonly rates: (number | null)[];
  /** What waited on the arrow at that time. */
  readonly backlogs: (number | null)[];
}

/** `GET /_eddy/api/flow/history`. */
export interface FlowHistoryAnswer {
  readonly intervalMs: number;
  readonly capacity: number;
  /** The stack clock's times of the samples, ms, oldest first. */
  readonly times: number[];
  readonly edges: EdgeHistory[];
}

/** A ring of numbers: `HISTORY_POINTS` slots, NaN for "no value". */
const emptyRing = () => new Float64Array(HISTORY_POINTS).fill(Number.NaN);

interface Track {
  edge: FlowEdge;
  lastCount: number;
  readonly rates: Float64Array;
  readonly backlogs: Float64Array;
}

/**
 * The flow's rates over time: a sample of every arrow's count and backlog each second of the
 * stack's clock, at whole seconds (so on the test kit's virtual clock the same steps give the
 * same history), in bounded rings of 300 per arrow.
 *
 * It costs nothing per write: it registers no listener, and a sample reads the counters the
 * diagram reads (`flowOf`), once a second whatever the write rate (bench/console.ts). It starts
 * with the first request of the console's API, so a stack that serves the console to nobody
 * (or a test kit's stack whose virtual clock jumps a day) runs no timer for it.
 */
export class FlowHistory {
  private readonly times = emptyRing();
  private readonly tracks = new Map<string, Track>();
  /** Slots written so far; the next goes at `written % HISTORY_POINTS`. */
  private written = 0;
  private timer: TimerHandle | undefined;
  private running = false;

  constructor(private readonly sources: ConsoleSources) {}

  private get clock(): Clock {
    return this.sources.clock;
  }

  /**
   * Starts sampling (idempotent): the counts now are the baseline, the first point is at the
   * next whole interval of the clock and counts what happened since.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    for (const edge of flowOf(this.sources).edges)
      this.tracks.set(edgeKey(edge), {
        edge,
        lastCount: edge.count,
        rates: emptyRing(),
        backlogs: emptyRing(),
      });
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Forgets every sample (the test kit's reset, whose clock dropped the timer) and samples again
   * from a new baseline when it was sampling, or when told to.
   */
  reset(restart = this.running): void {
    this.stop();
    this.times.fill(Number.NaN);
    this.tracks.clear();
    this.written = 0;
    if (restart) this.start();
  }

  /**
   * Moves a virtual clock by `ms` with `advance`, sampling only the last window of it: the
   * samples before would leave the rings by its end anyway, and each costs a look at every
   * counter (a day is 86,400 of them). The history then starts at the last window's baseline.
   */
  async advanceClock(ms: number, advance: (ms: number) => Promise<void>): Promise<void> {
    const window = HISTORY_POINTS * HISTORY_INTERVAL_MS;
    if (!this.running || ms <= window) return advance(ms);
    this.stop();
    await advance(ms - window);
    this.reset(true);
    await advance(window);
  }

  private schedule(): void {
    const now = this.clock.now();
    const next = (Math.floor(now / HISTORY_INTERVAL_MS) + 1) * HISTORY_INTERVAL_MS;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (!this.running) return;
      this.sample();
      this.schedule();
    }, next - now);
  }

  /** Takes one sample now (the timer does, each interval). */
  sample(): void {
    const flow = flowOf(this.sources);
    const slot = this.written % HISTORY_POINTS;
    this.times[slot] = flow.at;
    this.written++;
    const seen = new Set<string>();
    for (const edge of flow.edges) {
      const key = edgeKey(edge);
      if (seen.has(key)) continue;
      seen.add(key);
      let track = this.tracks.get(key);
      if (track === undefined) {
        // An arrow new since the last sample (a mapping created) counted from 0.
        track = { edge, lastCount: 0, rates: emptyRing(), backlogs: emptyRing() };
        this.tracks.set(key, track);
      }
      // Per interval, not per elapsed time: the first point also counts the part-interval since
      // the start. A count that went back (a mapping made again) is a new start, not a negative rate.
      const counted = edge.count >= track.lastCount ? edge.count - track.lastCount : edge.count;
      track.rates[slot] = (counted * 1000) / HISTORY_INTERVAL_MS;
      track.edge = edge;
      track.lastCount = edge.count;
      track.backlogs[slot] = edge.backlog;
    }
    // Arrows gone from the diagram (a mapping deleted) leave the history with it.
    for (const key of this.tracks.keys()) if (!seen.has(key)) this.tracks.delete(key);
  }

  /** The history, oldest first. */
  answer(): FlowHistoryAnswer {
    const count = Math.min(this.written, HISTORY_POINTS);
    const first = this.written <= HISTORY_POINTS ? 0 : this.written % HISTORY_POINTS;
    const read = (ring: Float64Array) => {
      const out: (number | null)[] = [];
      for (let n = 0; n < count; n++) {
        const value = ring[(first + n) % HISTORY_POINTS]!;
        out.push(Number.isNaN(value) ? null : value);
      }
      return out;
    };
    return {
      intervalMs: HISTORY_INTERVAL_MS,
      capacity: HISTORY_POINTS,
      times: read(this.times) as number[],
      edges: [...this.tracks.entries()].map(([key, track]) => ({
        key,
        from: track.edge.from,
        to: track.edge.to,
        label: track.edge.label,
        ...(track.edge.mappingUuid === undefined ? {} : { mappingUuid: track.edge.mappingUuid }),
        rates: read(track.rates),
        backlogs: read(track.backlogs),
      })),
    };
  }
}
