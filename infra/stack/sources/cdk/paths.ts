import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/** A CDK cloud assembly (`cdk.out/`, or the folder itself) or app (`cdk.json`) in `directory`. */
export function findCdk(directory: string): string | undefined {
  if (existsSync(join(directory, 'cdk.out', 'manifest.json'))) return join(directory, 'cdk.out');
  if (existsSync(join(directory, 'manifest.json')) && existsSync(join(directory, 'tree.json')))
    return directory;
  if (existsSync(join(directory, 'cdk.json'))) return directory;
  return undefined;
}

/** Whether a path names a cloud assembly (its folder or manifest) or a CDK app's folder. */
export function isCdkPath(path: string): boolean {
  if (basename(path) === 'manifest.json' || basename(path) === 'cdk.json') return true;
  return (
    existsSync(path) &&
    statSync(path).isDirectory() &&
    (existsSync(join(path, 'manifest.json')) ||
      existsSync(join(path, 'cdk.json')) ||
      existsSync(join(path, 'cdk.out', 'manifest.json')))
  );
}
