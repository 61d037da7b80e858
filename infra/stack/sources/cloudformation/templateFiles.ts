import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The template files eddy looks for in a folder, in this order. */
export const TEMPLATE_FILE_NAMES = ['template.yaml', 'template.yml', 'template.json'] as const;

/** The SAM or CloudFormation template in `directory`, if there is one. */
export function findTemplateFile(directory: string): string | undefined {
  for (const name of TEMPLATE_FILE_NAMES) {
    const candidate = join(directory, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
