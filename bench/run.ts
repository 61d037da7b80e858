import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { bundleBench, PROJECT_ROOT, THROUGH_TSX, TSX_LOADER } from './bundle.js';

/**
 * `npm run bench`: runs every benchmark in sequence, each in its own process (no heap or JIT
 * state carried from one to the next) and from an esbuild bundle, as eddy runs (bench/bundle.ts);
 * each prints its own table with ratios. Add a bench: a file whose `run()` is called when it is
 * the entry script, listed below. `npm run bench -- gsi http` runs only those.
 */
const benches: { file: string; title: string }[] = [
  { file: 'inProcess', title: 'in-process engine' },
  { file: 'partiql', title: 'PartiQL' },
  { file: 'http', title: 'HTTP' },
  { file: 'ttl', title: 'TTL' },
  { file: 'streams', title: 'streams' },
  { file: 'mappings', title: 'event source mappings' },
  { file: 'archive', title: 'archival' },
  { file: 'gsi', title: 'global secondary indexes' },
  { file: 'workload', title: 'workloads over HTTP: GSIs, streams with handlers, TTL' },
  { file: 'persistence', title: 'persistence' },
  { file: 'backup', title: 'backups, exports, imports, PITR' },
  { file: 'console', title: 'the event-flow console' },
  { file: 'capacity', title: 'capacity enforcement' },
  { file: 'kinesis', title: 'Kinesis streaming destinations' },
  { file: 'startup', title: 'startup (the installed package)' },
];

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !benches.some((bench) => bench.file === name));
if (unknown.length > 0) {
  console.error(
    `unknown bench ${unknown.join(', ')}; known: ${benches.map((bench) => bench.file).join(', ')}`,
  );
  process.exit(2);
}

let failed = false;
for (const bench of benches) {
  if (chosen.length > 0 && !chosen.includes(bench.file)) continue;
  console.log(`\n=== ${bench.title} ===`);
  // --expose-gc: the memory figures (bytes per item) are read after a full collection.
  const args = THROUGH_TSX
    ? ['--expose-gc', '--import', TSX_LOADER, join(PROJECT_ROOT, 'bench', `${bench.file}.ts`)]
    : ['--expose-gc', await bundleBench(bench.file)];
  const code = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, args, { stdio: 'inherit' }).on('exit', resolve),
  );
  if (code !== 0) {
    console.error(`${bench.title}: exited with ${code}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
