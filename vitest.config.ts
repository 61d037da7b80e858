import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // What users import as `eddy`, `eddy/testing`, `eddy/config` and `eddy/streams` (package.json
  // "exports"): the examples' tests run against the sources here, against the package in
  // `npm run test:package`.
  resolve: {
    alias: [
      { find: /^eddy$/, replacement: here('./infra/index.ts') },
      { find: /^eddy\/testing$/, replacement: here('./infra/testing/index.ts') },
      { find: /^eddy\/config$/, replacement: here('./infra/config.ts') },
      { find: /^eddy\/streams$/, replacement: here('./streams/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Forks, not threads: the process-level tests send signals to and wait on child processes.
    pool: 'forks',
    // Two workers on the 2-core CI machine (vitest's default there is one: cores - 1). Much of the
    // suite waits on child processes, sockets and files, so a second worker fills that time.
    maxWorkers: 2,
    // A worker keeps modules loaded between test files: importing the AWS SDK and eddy again for
    // each of ~170 files cost more CPU than the tests themselves (test/core: 59 s of CPU isolated,
    // 21 s not). Files stay independent the usual way: each starts its own engines, stacks and
    // servers and restores what it changes in process.env.
    isolate: false,
    testTimeout: 20_000,
    // The SDK's Node 22 notice (see infra/cli/main.ts): once per test file, it buries real output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 30_000,
  },
});
