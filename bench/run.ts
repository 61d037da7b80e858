/**
 * `npm run bench`: runs every benchmark in sequence; each prints its own table with ratios.
 * Add a bench: a file exporting `run()`, listed below.
 */
const benches: { name: string; load: () => Promise<{ run: () => Promise<unknown> }> }[] = [
  { name: 'in-process engine', load: () => import('./inProcess.js') },
  { name: 'HTTP', load: () => import('./http.js') },
  { name: 'TTL', load: () => import('./ttl.js') },
  { name: 'streams', load: () => import('./streams.js') },
  { name: 'event source mappings', load: () => import('./mappings.js') },
  { name: 'archival', load: () => import('./archive.js') },
  { name: 'global secondary indexes', load: () => import('./gsi.js') },
  { name: 'persistence', load: () => import('./persistence.js') },
];

for (const bench of benches) {
  console.log(`\n=== ${bench.name} ===`);
  await (await bench.load()).run();
}
