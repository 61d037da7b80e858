import { createRequire } from 'node:module';
import type * as Rx from 'rxjs';

/**
 * RxJS as eddy's modules use it: each function and class from the file of the `rxjs` package
 * that defines it (its `exports` map publishes `./internal/*`; the version is pinned in
 * package.json). These are the very modules `rxjs`'s index re-exports, so a user's own
 * `import 'rxjs'` gets the same classes and schedulers, and Observables and operators mix.
 *
 * Why not `import { map } from 'rxjs'`: in Node, `rxjs` is its CommonJS build, whose index loads
 * all ~250 files of the library, and an ESM `import` of it has Node lex each of them for export
 * names. That cost every start of eddy ~0.2 s of CPU (bench/startup.ts); the ~75 files below,
 * loaded with `require`, cost a fraction of it. The package (bin/bundleOptions.mjs) compiles the
 * same names in from RxJS's ES module build instead, cheaper still; keep every export here a
 * `load('Name', ...)` of its own name, the form that build reads.
 */
const require = createRequire(import.meta.url);
const load = <K extends keyof typeof Rx>(name: K, path: string): (typeof Rx)[K] =>
  (require(`rxjs/internal/${path}`) as typeof Rx)[name];

export const Observable = load('Observable', 'Observable');
export const Subscription = load('Subscription', 'Subscription');
export const EMPTY = load('EMPTY', 'observable/empty');
export const asapScheduler = load('asapScheduler', 'scheduler/asap');
export const defer = load('defer', 'observable/defer');
export const from = load('from', 'observable/from');
export const merge = load('merge', 'observable/merge');
export const of = load('of', 'observable/of');
export const timer = load('timer', 'observable/timer');
export const catchError = load('catchError', 'operators/catchError');
export const concatMap = load('concatMap', 'operators/concatMap');
export const concatWith = load('concatWith', 'operators/concatWith');
export const expand = load('expand', 'operators/expand');
export const filter = load('filter', 'operators/filter');
export const groupBy = load('groupBy', 'operators/groupBy');
export const ignoreElements = load('ignoreElements', 'operators/ignoreElements');
export const map = load('map', 'operators/map');
export const mergeMap = load('mergeMap', 'operators/mergeMap');
export const retry = load('retry', 'operators/retry');
export const take = load('take', 'operators/take');
export const tap = load('tap', 'operators/tap');
export const pipe = load('pipe', 'util/pipe');

export type Observable<T> = Rx.Observable<T>;
export type Subscription = Rx.Subscription;
export type {
  GroupedObservable,
  MonoTypeOperatorFunction,
  ObservableInput,
  OperatorFunction,
  SchedulerAction,
  SchedulerLike,
} from 'rxjs';
