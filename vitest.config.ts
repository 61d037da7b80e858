import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // What users import as `eddy/testing`, `eddy/config` and `eddy/streams` (package.json "exports").
  resolve: {
    alias: {
      'eddy/testing': here('./infra/testing/index.ts'),
      'eddy/config': here('./infra/config.ts'),
      'eddy/streams': here('./streams/index.ts'),
    },
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
