import type { PathNode, ProjectionNode } from './ast.js';
import { NO_KEYWORDS } from './lexer.js';
import { Parser } from './parser.js';

/**
 * ProjectionExpression: `path (, path)*` (docs/dynamodb.md §5.4.1). There are no keywords, so `set` is a
 * name (and a reserved word); a trailing comma is a syntax error.
 */
export class ProjectionParser extends Parser {
  constructor(text: string) {
    super(text, 'Projection', NO_KEYWORDS);
  }

  parse(): ProjectionNode {
    const paths: PathNode[] = [this.parsePath()];
    while (this.isPunct(',')) {
      this.advance();
      paths.push(this.parsePath());
    }
    this.expectEnd();
    return { type: 'projection', paths };
  }
}
