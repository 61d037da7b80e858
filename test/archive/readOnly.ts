import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes a directory tree unwritable, to simulate a full or read-only disk: `chmod a-w` on every
 * folder, and, when that does not stop the current user (root ignores permission bits), the
 * immutable attribute (`chattr +i`, which stops root too). Returns the function that undoes it.
 */
export function makeReadOnly(root: string): () => void {
  const folders = foldersOf(root);
  for (const folder of folders) chmodSync(folder, 0o555);
  const undoChmod = () => {
    for (const folder of folders) chmodSync(folder, 0o755);
  };
  if (!canWrite(root)) return undoChmod;
  execFileSync('chattr', ['-R', '+i', root]);
  if (canWrite(root)) {
    execFileSync('chattr', ['-R', '-i', root]);
    undoChmod();
    throw new Error(`cannot make ${root} read-only on this machine`);
  }
  return () => {
    execFileSync('chattr', ['-R', '-i', root]);
    undoChmod();
  };
}

function foldersOf(root: string): string[] {
  const folders = [root];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) folders.push(...foldersOf(join(root, entry.name)));
  }
  return folders;
}

function canWrite(folder: string): boolean {
  const probe = join(folder, `.probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe);
    return true;
  } catch {
    return false;
  }
}
