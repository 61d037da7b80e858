import type { Block } from './module.js';

/**
 * `:12 (resource.aws_dynamodb_table.orders.hash_key)`: the line of a block's header, or of the
 * argument's name inside it, in the file's text (hcl2json gives no positions: the text is searched).
 */
export function locateIn(
  text: string,
  block: Block,
  path: readonly (string | number)[],
  prefix: string,
): string {
  const lines = text.split('\n');
  const header = new RegExp(
    `^\\s*${block.address[0]}\\s+${block.address
      .slice(1)
      .map((part) => `"${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`)
      .join('\\s+')}\\s*\\{`,
  );
  let line = lines.findIndex((candidate) => header.test(candidate));
  const name = path.find((key): key is string => typeof key === 'string');
  if (line >= 0 && name !== undefined) {
    const argument = new RegExp(`^\\s*"?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*[={]`);
    for (let index = line + 1; index < lines.length; index++) {
      if (/^\S/.test(lines[index]!) && index > line + 1 && !/^\s*}/.test(lines[index]!)) break;
      if (argument.test(lines[index]!)) {
        line = index;
        break;
      }
    }
  }
  const where = [...(prefix === '' ? [] : [prefix.slice(0, -1)]), ...block.address, ...path.map(String)]
    .filter((part) => part !== '')
    .join('.');
  return `${line >= 0 ? `:${line + 1}` : ''} (${where})`;
}
