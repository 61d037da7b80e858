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
    // Two cores on the CI machine: the forks pool keeps workers isolated (servers, child processes).
    pool: 'forks',
    testTimeout: 20_000,
    // The SDK's Node 22 notice (see infra/cli/main.ts): once per test file, it buries real output.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 30_000,
  },
});
