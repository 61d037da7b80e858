import type { DynamoDBRecord } from 'aws-lambda';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { changes$ } from '../../streams/changes.js';
import { seededRandom as random } from '../helpers/random.js';
import { createTable, fixture } from './helpers.js';

/**
 * Bounded soak: 200,000 writes across 1,000 keys while readers pause at random. Every reader
 * must get every record exactly once, each key's records in commit order, none lost.
 */

const WRITES = 200_000;
const KEYS = 1_000;
const CHUNK = 2_000;
/** How long the readers may take to drain before the counts are checked anyway (a hang). */
const HANG_MS = 100_000;

interface Reader {
  readonly name: string;
  count: number;
  readonly sequenceNumbers: Set<string>;
  readonly lastByKey: Int32Array;
  orderViolations: number;
  error: unknown;
}

/** Resolves once every reader has all `WRITES` records or an error: checked on each record, no polling. */
function allDone(readers: readonly Reader[]): { promise: Promise<void>; check(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return {
    promise,
    check() {
      if (readers.every((one) => one.count >= WRITES || one.error !== undefined)) resolve();
    },
  };
}

function reader(name: string): Reader {
  return {
    name,
    count: 0,
    sequenceNumbers: new Set(),
    lastByKey: new Int32Array(KEYS).fill(-1),
    orderViolations: 0,
    error: undefined,
  };
}

function check(into: Reader, record: DynamoDBRecord): void {
  into.count++;
  into.sequenceNumbers.add(record.dynamodb!.SequenceNumber!);
  const key = Number(record.dynamodb!.Keys!.pk!.N);
  const value = Number(record.dynamodb!.NewImage!.v!.N);
  if (value <= into.lastByKey[key]!) into.orderViolations++;
  into.lastByKey[key] = value;
}

/** A pause signal that a subscriber flips at random and that resumes after a few milliseconds. */
function randomPauses(next: () => number, probability: number) {
  const pause = new BehaviorSubject(false);
  return {
    pause,
    maybePause() {
      if (pause.value || next() >= probability) return;
      pause.next(true);
      setTimeout(() => pause.next(false), Math.floor(next() * 4));
    },
  };
}

describe('soak', () => {
  it(
    'delivers 200,000 writes over 1,000 keys exactly once, in per-key commit order, to readers that pause at random',
    async () => {
      const f = fixture();
      createTable(f.engine, 'Soak', 'NEW_IMAGE', { hashType: 'N' });
      const next = random(20260101);
      const readers = { live: reader('live'), replay: reader('replay'), internal: reader('internal') };
      const done = allDone(Object.values(readers));

      const livePauses = randomPauses(next, 1 / 400);
      const live = changes$(f.changeLog, 'Soak', { pause: livePauses.pause }).subscribe({
        next: (record) => {
          check(readers.live, record);
          livePauses.maybePause();
          done.check();
        },
        error: (error) => {
          readers.live.error = error;
          done.check();
        },
      });
      const internal = changes$(f.changeLog, 'Soak', { feed: 'internal', viewType: 'NEW_IMAGE' }).subscribe({
        next: (record) => {
          check(readers.internal, record);
          done.check();
        },
        error: (error) => {
          readers.internal.error = error;
          done.check();
        },
      });

      const inputs = Array.from({ length: WRITES }, (_, i) => ({
        TableName: 'Soak',
        Item: { pk: { N: String(i % KEYS) }, v: { N: String(i) } },
      }));
      let replay: { unsubscribe(): void } | undefined;
      const replayPauses = randomPauses(next, 1 / 250);
      for (let start = 0; start < WRITES; start += CHUNK) {
        for (let i = start; i < start + CHUNK; i++) f.engine.executeRaw('PutItem', inputs[i]);
        // A replaying reader joins a quarter of the way in, from the beginning, with a small buffer.
        if (start === WRITES / 4) {
          replay = changes$(f.changeLog, 'Soak', {
            from: 'TRIM_HORIZON',
            pause: replayPauses.pause,
            bufferSize: 64,
          }).subscribe({
            next: (record) => {
              check(readers.replay, record);
              replayPauses.maybePause();
              done.check();
            },
            error: (error) => {
              readers.replay.error = error;
              done.check();
            },
          });
        }
        await new Promise((resolve) => setImmediate(resolve));
      }

      // The readers drain on their own: the test goes on as soon as the last record arrives. The
      // bound only turns a lost record into the counts below instead of a bare timeout; it is far
      // above the few seconds this takes, so a busy machine does not reach it.
      let hang: NodeJS.Timeout | undefined;
      await Promise.race([done.promise, new Promise((resolve) => (hang = setTimeout(resolve, HANG_MS)))]);
      clearTimeout(hang);
      live.unsubscribe();
      internal.unsubscribe();
      replay?.unsubscribe();

      for (const one of Object.values(readers)) {
        expect({ name: one.name, error: one.error }).toEqual({ name: one.name, error: undefined });
        expect({
          name: one.name,
          count: one.count,
          distinct: one.sequenceNumbers.size,
          orderViolations: one.orderViolations,
        }).toEqual({
          name: one.name,
          count: WRITES,
          distinct: WRITES,
          orderViolations: 0,
        });
        // Each key's last record is its last write.
        for (let key = 0; key < KEYS; key++) expect(one.lastByKey[key]).toBe(WRITES - KEYS + key);
      }
      // The internal feed held records only until its reader consumed them.
      expect(f.changeLog.internalFeed('000000000000', 'us-east-1', 'Soak').log.size).toBe(0);
    },
    HANG_MS + 20_000,
  );
});
