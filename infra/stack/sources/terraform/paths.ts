import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname } from 'node:path';

/** The folder, when it holds a Terraform configuration (`*.tf` files). */
export function findTerraform(directory: string): string | undefined {
  try {
    return readdirSync(directory).some((name) => name.endsWith('.tf') || name.endsWith('.tf.json'))
      ? directory
      : undefined;
  } catch {
    return undefined;
  }
}

/** A `.tf` file (its folder is the configuration) or a folder of them. */
export function isTerraformPath(path: string): boolean {
  if (extname(path) === '.tf' || path.endsWith('.tf.json')) return true;
  return existsSync(path) && statSync(path).isDirectory() && findTerraform(path) !== undefined;
}

/** The configuration's folder for a `--template` path. */
export function terraformDirectory(path: string): string {
  return extname(path) === '.tf' || path.endsWith('.tf.json') ? dirname(path) : path;
}
