import { ExpressionError, evaluateExpression } from './expressions.js';
import type { Block } from './module.js';

/**
 * A variable's value given as text (`--var size=3`, `TF_VAR_size=3`), as its `type` reads it:
 * `string` and `any` as text, `number` and `bool` converted, lists, maps and objects parsed as
 * expressions (`--var 'tags={ team = "shop" }'`), as Terraform does.
 * https://developer.hashicorp.com/terraform/language/values/variables#variables-on-the-command-line
 * @throws Error saying why the text is not of the type.
 */
export function typedValue(block: Block, text: string, directory: string): unknown {
  const type =
    typeof block.body.type === 'string' ? block.body.type.replace(/^\$\{|\}$/g, '').trim() : 'string';
  if (type === 'string' || type === 'any') return text;
  if (type === 'number') {
    const number = Number(text);
    if (text.trim() === '' || Number.isNaN(number)) throw new Error(`'${text}' is not a number`);
    return number;
  }
  if (type === 'bool') {
    if (text !== 'true' && text !== 'false') throw new Error(`'${text}' is not true or false`);
    return text === 'true';
  }
  try {
    return evaluateExpression(text, {
      directory,
      reference: () => {
        throw new ExpressionError('a variable value cannot refer to anything');
      },
    });
  } catch (error) {
    throw new Error(`'${text}' is not a ${type}: ${(error as Error).message}`);
  }
}
