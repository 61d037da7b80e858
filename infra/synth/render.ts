import { Document } from 'yaml';
import type { SamTemplate, TemplateFormat } from './template.js';

/**
 * A template as text: YAML (default) or JSON.
 *
 * YAML is written for YAML 1.1, the version CloudFormation and cfn-lint read: strings that 1.1
 * would take for something else (`2010-09-09` a date, `on`/`yes` booleans) come out quoted. Shared
 * objects are written out again rather than as anchors and aliases (`aliasDuplicateObjects`),
 * and long strings are never folded (filter patterns stay on one line, as in the config).
 */
export function renderTemplate(
  template: SamTemplate,
  format: TemplateFormat,
  header: readonly string[] = [],
): string {
  if (format === 'json') return `${JSON.stringify(template, null, 2)}\n`;
  const document = new Document(template, { version: '1.1', aliasDuplicateObjects: false });
  if (header.length > 0) document.commentBefore = header.map((line) => ` ${line}`).join('\n');
  return document.toString({ lineWidth: 0 });
}
