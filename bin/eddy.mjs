#!/usr/bin/env node
// The `eddy` executable: runs the TypeScript CLI through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../infra/cli/main.ts');
