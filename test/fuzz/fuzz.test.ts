import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../core/actions/index.js';
import { Engine } from '../../core/engine.js';
import { StreamsService } from '../../streams/index.js';
import { DYNAMODB, type FuzzTarget, STREAMS, startFuzzTarget, TARGETS } from './harness.js';
import { fuzzCaseArb } from './mutations.js';

// Issue 16 item 4: property-based fuzzing over real HTTP, every operation of both APIs, from
// valid requests mutated and from random bodies. Bounded here (npm test); `npm run fuzz` runs
// 10,000 cases and prints the tally (test/fuzz/run.ts).
let target: FuzzTarget;
beforeAll(async () => {
  target = await startFuzzTarget();
});
afterAll(() => target.close());

describe('fuzzing eddy over HTTP', () => {
  it('has a template for every operation of the DynamoDB and DynamoDB Streams APIs', () => {
    const streams = new StreamsService(new Engine());
    const streamsOperations = ['ListStreams', 'DescribeStream', 'GetShardIterator', 'GetRecords'];
    expect(streamsOperations.every((operation) => streams.supports(operation))).toBe(true);
    expect(new Set(TARGETS)).toEqual(
      new Set([
        ...Object.keys(operations).map((operation) => `${DYNAMODB}.${operation}`),
        ...streamsOperations.map((operation) => `${STREAMS}.${operation}`),
      ]),
    );
  });

  it('answers mutated and random requests with no 5xx, no crash and no change from a refused write', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCaseArb, async (fuzzCase) => {
        const outcome = await target.run(fuzzCase);
        const failed =
          outcome.status >= 500 ||
          outcome.crashed ||
          outcome.stateChanged ||
          outcome.internalErrors.length > 0;
        if (failed) throw new Error(JSON.stringify(outcome, null, 2));
      }),
      // A number of cases, not a span of time: the same coverage on a fast or a busy machine
      // (a 15 s limit cut a run on a loaded machine short). 1,000 cases reach each of the 61
      // operations (3-6 cases for the rarest, sampled over five seeds); `npm run fuzz` goes deeper.
      { numRuns: 1_000, seed: seedFromEnvironment() },
    );
    const after = await target.run({ kind: 'mutated', template: 0, target: -1, mutations: [] });
    expect(after.crashed).toBe(false);
  }, 40_000);
});

/** FUZZ_SEED replays a failing run (fast-check prints the seed with the counterexample). */
function seedFromEnvironment(): number | undefined {
  return process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
}
