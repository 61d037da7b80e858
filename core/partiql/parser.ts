import { ValidationException } from '../errors/index.js';
import type {
  DeleteStatement,
  Expr,
  OrderItem,
  PathExpr,
  ReturningMode,
  SelectStatement,
  Statement,
  UpdateAction,
  UpdateStatement,
} from './ast.js';
import { malformed, PartiqlMessages, positioned } from './errors.js';
import { ExpressionParser } from './expressionParser.js';
import { tokenize } from './lexer.js';

/**
 * Parses one PartiQL statement into its tree (docs/partiql.md §2): SELECT, INSERT, UPDATE (and the
 * FROM-first form `FROM "T" WHERE … SET …`), DELETE, and EXISTS(SELECT …) for transactions. The
 * grammar only builds the tree; what DynamoDB refuses in a well-formed statement is the planner's.
 *
 * @example
 * ```ts
 * const statement = parseStatement(`SELECT * FROM "Orders" WHERE OrderID = ?`);
 * // { kind: 'select', table: 'Orders', where: { type: 'compare', ... }, parameterCount: 1, ... }
 * ```
 */
export function parseStatement(text: string): Statement {
  return new StatementParser(tokenize(text)).statement();
}

class StatementParser extends ExpressionParser {
  statement(): Statement {
    const token = this.peek();
    let statement: Statement;
    if (token.kind === 'keyword' && token.text === 'SELECT') statement = this.select();
    else if (token.kind === 'keyword' && token.text === 'INSERT') statement = this.insert();
    else if (token.kind === 'keyword' && token.text === 'UPDATE') statement = this.update();
    else if (token.kind === 'keyword' && token.text === 'DELETE') statement = this.delete();
    else if (token.kind === 'keyword' && token.text === 'FROM') statement = this.fromFirstUpdate();
    else if (token.kind === 'keyword' && token.text === 'EXISTS' && this.isPunctuation('(', 1))
      statement = this.exists();
    else return this.bareExpression();
    this.acceptPunctuation(';');
    if (this.peek().kind !== 'end') throw malformed(PartiqlMessages.leftover);
    return statement;
  }

  /** A statement that is an expression, not a DML statement: refused by what it is. */
  private bareExpression(): never {
    let expression: Expr;
    try {
      expression = this.expression();
    } catch (error) {
      // Not even an expression: the parser wanted a statement keyword first.
      if (error instanceof ValidationException) throw malformed(PartiqlMessages.expectedDataManipulation);
      throw error;
    }
    this.acceptPunctuation(';');
    if (this.peek().kind !== 'end') throw malformed(PartiqlMessages.expectedDataManipulation);
    throw new ValidationException(PartiqlMessages.unsupportedOperation(operationClass(expression)));
  }

  private select(): SelectStatement {
    this.next();
    if (this.isKeyword('DISTINCT'))
      throw new ValidationException('Unsupported token in expression: DISTINCT');
    let projection: PathExpr[] | undefined;
    if (!this.acceptPunctuation('*')) {
      projection = [];
      do {
        const item = this.expression();
        if (item.type !== 'path') {
          throw positioned(PartiqlMessages.unexpectedPathComponent, positionOf(item));
        }
        if (this.isKeyword('AS')) throw new ValidationException(PartiqlMessages.aliasing);
        projection.push(item);
      } while (this.acceptPunctuation(','));
    }
    this.expect('FROM');
    const { table, index } = this.source();
    this.rejectAlias();
    let where: Expr | undefined;
    if (this.acceptKeyword('WHERE')) where = this.expression();
    const orderBy: OrderItem[] = [];
    if (this.isKeyword('ORDER') && this.isKeyword('BY', 1)) {
      this.next();
      this.next();
      do {
        const path = this.expression();
        if (path.type !== 'path') throw positioned(PartiqlMessages.unexpectedPathComponent, positionOf(path));
        let descending = false;
        if (this.acceptKeyword('DESC')) descending = true;
        else this.acceptKeyword('ASC');
        orderBy.push({ path, descending });
      } while (this.acceptPunctuation(','));
    }
    for (const clause of ['GROUP', 'HAVING', 'LIMIT', 'OFFSET']) {
      if (this.isKeyword(clause))
        throw new ValidationException(
          PartiqlMessages.unsupportedClause(clause === 'GROUP' ? 'GROUP BY' : clause),
        );
    }
    return { kind: 'select', projection, table, index, where, orderBy, parameterCount: this.parameters };
  }

  /**
   * `"Table"` or `"Table"."Index"` after FROM: a term, so its absence is "Unexpected term". An empty
   * name and a third component are refused here, before the table is looked up (docs/partiql.md §5.4).
   */
  private source(): { table: string; index: string | undefined } {
    const token = this.peek();
    if (token.kind !== 'identifier' && token.kind !== 'quoted') throw this.termError(token);
    this.next();
    if (token.text === '') throw new ValidationException(PartiqlMessages.emptyPathComponent);
    if (!this.isPunctuation('.')) return { table: token.text, index: undefined };
    this.next();
    const index = this.peek();
    if (index.kind !== 'identifier' && index.kind !== 'quoted')
      throw malformed(PartiqlMessages.invalidDotComponent);
    this.next();
    if (index.text === '') throw new ValidationException(PartiqlMessages.emptyPathComponent);
    if (this.isPunctuation('.')) throw new ValidationException(PartiqlMessages.tooManyFromComponents);
    return { table: token.text, index: index.text };
  }

  /** The table of INSERT: one name; an index after it is refused as the parser reads it. */
  private insertTable(): string {
    const token = this.peek();
    if (token.kind !== 'identifier' && token.kind !== 'quoted')
      throw malformed(PartiqlMessages.expectedIdentifier);
    this.next();
    if (this.isPunctuation('.')) throw new ValidationException(PartiqlMessages.singleTableName);
    return token.text;
  }

  /** The table of UPDATE and DELETE, with the index the planner refuses (docs/partiql.md §3.3). */
  private writeTarget(): { table: string; index: string | undefined } {
    const token = this.peek();
    if (token.kind !== 'identifier' && token.kind !== 'quoted')
      throw malformed(PartiqlMessages.expectedIdentifier);
    this.next();
    if (!this.acceptPunctuation('.')) return { table: token.text, index: undefined };
    const index = this.peek();
    if (index.kind !== 'identifier' && index.kind !== 'quoted')
      throw malformed(PartiqlMessages.invalidDotComponent);
    this.next();
    if (this.isPunctuation('.')) throw malformed(PartiqlMessages.leftover);
    return { table: token.text, index: index.text };
  }

  /** `FROM "T" t` or `FROM "T" AS t`: DynamoDB refuses table aliases. */
  private rejectAlias(): void {
    const token = this.peek();
    if (token.kind === 'identifier' || token.kind === 'quoted' || this.isKeyword('AS'))
      throw new ValidationException(PartiqlMessages.aliasing);
  }

  private insert(): Statement {
    this.next();
    this.expect('INTO');
    const table = this.insertTable();
    if (!this.acceptKeyword('VALUE')) throw malformed(PartiqlMessages.leftover);
    const value = this.expression();
    if (this.isKeyword('RETURNING')) throw new ValidationException(PartiqlMessages.returningInInsert);
    return { kind: 'insert', table, value, parameterCount: this.parameters };
  }

  private update(): UpdateStatement {
    this.next();
    const { table, index } = this.writeTarget();
    this.rejectAlias();
    const actions = this.updateActions();
    let where: Expr | undefined;
    if (this.acceptKeyword('WHERE')) where = this.expression();
    const returning = this.returning();
    return { kind: 'update', table, index, actions, where, returning, parameterCount: this.parameters };
  }

  private fromFirstUpdate(): UpdateStatement {
    this.next();
    const { table, index } = this.writeTarget();
    this.rejectAlias();
    let where: Expr | undefined;
    if (this.acceptKeyword('WHERE')) where = this.expression();
    const actions = this.updateActions();
    const returning = this.returning();
    return { kind: 'update', table, index, actions, where, returning, parameterCount: this.parameters };
  }

  /** One or more `SET a = x, b = y` and `REMOVE a, b` clauses, in any order. */
  private updateActions(): UpdateAction[] {
    const actions: UpdateAction[] = [];
    for (;;) {
      if (this.acceptKeyword('SET')) {
        do {
          const path = this.assignmentTarget();
          this.expect('=');
          actions.push({ kind: 'set', path, value: this.expression() });
        } while (this.acceptPunctuation(','));
      } else if (this.acceptKeyword('REMOVE')) {
        do actions.push({ kind: 'remove', path: this.assignmentTarget() });
        while (this.acceptPunctuation(','));
      } else {
        break;
      }
    }
    if (actions.length === 0) throw this.termError(this.peek());
    return actions;
  }

  private assignmentTarget(): PathExpr {
    const token = this.peek();
    if (token.kind !== 'identifier' && token.kind !== 'quoted') throw this.termError(token);
    this.next();
    return this.pathSteps(token);
  }

  private delete(): DeleteStatement {
    this.next();
    this.expect('FROM');
    const { table, index } = this.writeTarget();
    this.rejectAlias();
    let where: Expr | undefined;
    if (this.acceptKeyword('WHERE')) where = this.expression();
    const returning = this.returning();
    return { kind: 'delete', table, index, where, returning, parameterCount: this.parameters };
  }

  /** `RETURNING ALL OLD *` and the like. */
  private returning(): ReturningMode | undefined {
    if (!this.acceptKeyword('RETURNING')) return undefined;
    const scope = this.peek();
    if (!this.isKeyword('ALL') && !this.isKeyword('MODIFIED')) throw this.termError(scope);
    this.next();
    const age = this.peek();
    if (!this.isKeyword('OLD') && !this.isKeyword('NEW')) throw this.termError(age);
    this.next();
    if (!this.acceptPunctuation('*'))
      throw new ValidationException(
        "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause",
      );
    if (this.isPunctuation(','))
      throw new ValidationException('Invalid syntax with multiple returning elements in RETURNING clause');
    return `${scope.text} ${age.text}` as ReturningMode;
  }

  private exists(): Statement {
    this.next();
    this.expect('(');
    if (!this.isKeyword('SELECT')) throw this.termError(this.peek());
    const select = this.select();
    if (!this.acceptPunctuation(')')) throw this.termError(this.peek());
    return { kind: 'exists', select, parameterCount: this.parameters };
  }
}

function positionOf(expression: Expr) {
  if ('position' in expression) return expression.position;
  return positionOf(
    'left' in expression ? expression.left : 'operand' in expression ? expression.operand : expression,
  );
}

/** The class name PartiQL's reference parser gives a bare expression (`Unsupported operation: IsType`). */
function operationClass(expression: Expr): string {
  switch (expression.type) {
    case 'is':
      return 'IsType';
    case 'path':
      return expression.steps.length === 0 ? 'VariableReference' : 'Path';
    case 'literal':
      return 'Literal';
    case 'parameter':
      return 'Parameter';
    case 'tuple':
      return 'Struct';
    case 'list':
    case 'bag':
      return 'Seq';
    default:
      return 'NAry';
  }
}
