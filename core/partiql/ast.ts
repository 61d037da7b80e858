/**
 * The typed statement tree the PartiQL parser builds (docs/partiql.md §2). It depends on the
 * statement text only, so it is cached per text (`cache.ts`) and never mutated; parameters, the
 * table's schema and the planner's choices come after.
 */

/** Where a token starts (line and column from 1, in characters) and how long it is. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly length: number;
}

export type PathStep =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number };

/** `a`, `"a b".c[0]`: a first name, then map members and list indexes. */
export interface PathExpr {
  readonly type: 'path';
  readonly name: string;
  readonly steps: readonly PathStep[];
  readonly position: Position;
}

/** Scalar literals as written; numbers keep their text until they are checked. */
export type LiteralValue =
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'null' }
  | { readonly kind: 'missing' };

export interface LiteralExpr {
  readonly type: 'literal';
  readonly value: LiteralValue;
  readonly position: Position;
}

/** `?`: the n-th parameter (0-based, in textual order). */
export interface ParameterExpr {
  readonly type: 'parameter';
  readonly index: number;
  readonly position: Position;
}

export interface TupleExpr {
  readonly type: 'tuple';
  readonly fields: readonly { readonly key: Expr; readonly value: Expr }[];
  readonly position: Position;
}

export interface ListExpr {
  readonly type: 'list';
  readonly elements: readonly Expr[];
  readonly position: Position;
}

/** `<<…>>`: DynamoDB reads a bag as a set. */
export interface BagExpr {
  readonly type: 'bag';
  readonly elements: readonly Expr[];
  readonly position: Position;
}

export interface CallExpr {
  readonly type: 'call';
  /** Lower-cased: function names are case-insensitive. */
  readonly name: string;
  readonly args: readonly Expr[];
  readonly position: Position;
}

export type CompareOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';

export interface CompareExpr {
  readonly type: 'compare';
  readonly operator: CompareOperator;
  readonly left: Expr;
  readonly right: Expr;
}

export interface BetweenExpr {
  readonly type: 'between';
  readonly operand: Expr;
  readonly lower: Expr;
  readonly upper: Expr;
}

export interface InExpr {
  readonly type: 'in';
  readonly operand: Expr;
  /** The candidates: a list, a bag or a parenthesised sequence, or one parameter holding a list. */
  readonly list: Expr;
}

/** `x IS [NOT] NULL | MISSING | <type name>`. */
export interface IsExpr {
  readonly type: 'is';
  readonly operand: Expr;
  readonly negated: boolean;
  /** `NULL`, `MISSING`, or an upper-cased type name (`BOOL`, `STRING`...). */
  readonly test: string;
}

export interface LogicalExpr {
  readonly type: 'and' | 'or';
  readonly left: Expr;
  readonly right: Expr;
}

export interface NotExpr {
  readonly type: 'not';
  readonly operand: Expr;
}

export interface ArithmeticExpr {
  readonly type: 'arithmetic';
  readonly operator: '+' | '-' | '*' | '/' | '%' | '||';
  readonly left: Expr;
  readonly right: Expr;
  readonly position: Position;
}

export type Expr =
  | PathExpr
  | LiteralExpr
  | ParameterExpr
  | TupleExpr
  | ListExpr
  | BagExpr
  | CallExpr
  | CompareExpr
  | BetweenExpr
  | InExpr
  | IsExpr
  | LogicalExpr
  | NotExpr
  | ArithmeticExpr;

export interface OrderItem {
  readonly path: PathExpr;
  readonly descending: boolean;
}

export type ReturningMode = 'ALL OLD' | 'MODIFIED OLD' | 'ALL NEW' | 'MODIFIED NEW';

export interface SelectStatement {
  readonly kind: 'select';
  /** undefined for `*`. */
  readonly projection: readonly PathExpr[] | undefined;
  readonly table: string;
  readonly index: string | undefined;
  readonly where: Expr | undefined;
  readonly orderBy: readonly OrderItem[];
  readonly parameterCount: number;
}

export interface InsertStatement {
  readonly kind: 'insert';
  readonly table: string;
  readonly value: Expr;
  readonly parameterCount: number;
}

export type UpdateAction =
  | { readonly kind: 'set'; readonly path: PathExpr; readonly value: Expr }
  | { readonly kind: 'remove'; readonly path: PathExpr };

export interface UpdateStatement {
  readonly kind: 'update';
  readonly table: string;
  /** `UPDATE "T"."Index"`: grammatical, refused by the planner (docs/partiql.md §3.3). */
  readonly index: string | undefined;
  readonly actions: readonly UpdateAction[];
  readonly where: Expr | undefined;
  readonly returning: ReturningMode | undefined;
  readonly parameterCount: number;
}

export interface DeleteStatement {
  readonly kind: 'delete';
  readonly table: string;
  /** `DELETE FROM "T"."Index"`: grammatical, refused by the planner (docs/partiql.md §3.3). */
  readonly index: string | undefined;
  readonly where: Expr | undefined;
  readonly returning: ReturningMode | undefined;
  readonly parameterCount: number;
}

/** `EXISTS(SELECT …)`: a condition check, in ExecuteTransaction only. */
export interface ExistsStatement {
  readonly kind: 'exists';
  readonly select: SelectStatement;
  readonly parameterCount: number;
}

export type Statement =
  | SelectStatement
  | InsertStatement
  | UpdateStatement
  | DeleteStatement
  | ExistsStatement;
