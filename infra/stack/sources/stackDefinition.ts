import { ConfigError } from '../../cli/loadConfig.js';
import type { EddyConfig } from '../../config.js';

/**
 * One stack, whatever it was written in (docs/templates.md §2): an eddy config, a SAM or CloudFormation
 * template, a CDK cloud assembly... Each format has a loader (`sources/<format>/`) that produces
 * this; the local stack, `eddy build`, `eddy synth` and `eddy invoke` read only `config`, so none
 * of them knows where a stack came from.
 *
 * `config` is the `EddyConfig` shape: tables as CreateTable requests, functions with their stream
 * and schedule bindings, destinations as ARNs, the archive. The rest is provenance: which file,
 * what was not taken and why, how to point at the place in the file that caused a later error.
 */
export interface StackDefinition {
  readonly config: EddyConfig;
  readonly origin: StackOrigin;
  /** Where relative paths of the stack start (the file's folder). */
  readonly baseDirectory: string;
  /**
   * What the stack holds that eddy does not run, one line each, shown at start: functions in
   * other runtimes, ignored resource types grouped by type (`ignored: 2 AWS::IAM::Role, ...`).
   */
  readonly notices: readonly string[];
  /** Files whose change means the stack should be read again (`eddy serve --watch`). */
  readonly watchFiles: readonly string[];
  /**
   * The error for a problem found after loading (the engine refuses a table, a binding's settings
   * are refused...), at a path of `config` (`tables[1]`, `functions.OnOrder.events[0]`): it names
   * the place in the source file the path came from.
   */
  errorAt(path: string, reason: string, options?: { cause?: unknown }): ConfigError;
}

/** The formats eddy reads (later loaders add theirs). */
export type StackFormat = 'eddy-config' | 'cloudformation' | 'cdk';

export interface StackOrigin {
  readonly format: StackFormat;
  /** The file (or folder, for a cloud assembly) the stack was read from. */
  readonly file: string;
  /** What it is, for people: `eddy config`, `SAM template`, `CloudFormation template`, `CDK cloud assembly`. */
  readonly kind: string;
  /** True when eddy looked for it in the working folder (no `--config` or `--template`). */
  readonly discovered: boolean;
}

/**
 * A template eddy cannot use: the file, where in it (`:12:7 (Resources.Orders.Properties)` for
 * YAML, `#/Resources/Orders/Properties` for JSON, empty for the whole file) and why. A
 * `ConfigError`, so every command that reports a bad config reports a bad template the same way.
 */
export class TemplateError extends ConfigError {
  override readonly name: string = 'TemplateError';
  constructor(file: string, where: string, reason: string, options?: { cause?: unknown }) {
    super(file, where, reason, options);
    this.message = `Bad template ${file}${where}: ${reason}`;
  }
}

/** What a loader is given, besides the file. */
export interface LoadStackOptions {
  /** The working folder (relative paths on the command line start here). */
  readonly cwd: string;
  /** Template parameter values (`--parameter-overrides Key=Value`), by name. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** The local region and account: a template's `AWS::Region` and `AWS::AccountId`. */
  readonly region?: string;
  readonly accountId?: string;
  /** `AWS::StackName` (default: the stack's own, else the template folder's name). */
  readonly stackName?: string;
  /** CDK: run the app's `cdk synth` first (`--cdk`). */
  readonly cdk?: boolean;
  /** Whether eddy found the file itself (no `--config` or `--template`). */
  readonly discovered?: boolean;
  /** Where generated files go (inline code, unpacked zips): default `<stack folder>/.eddy`. */
  readonly workDirectory?: string;
}

/** A format eddy reads: how to find its file in a folder, and how to load it. */
export interface StackSource {
  readonly format: StackFormat;
  /** The file (or folder) of this format in `directory`, if there is one. */
  find(directory: string): string | undefined;
  load(path: string, options: LoadStackOptions): Promise<StackDefinition>;
}

/**
 * `errorAt` for a stack read from a file: the config path's longest prefix that has a place in the
 * file (`functions.OnOrder.events[0]` → the event's place) decides where the message points.
 */
export function errorAtProvenance<P>(
  provenance: ReadonlyMap<string, P>,
  error: (place: P | undefined, reason: string, options?: { cause?: unknown }) => ConfigError,
): StackDefinition['errorAt'] {
  return (path, reason, options) => {
    let best: string | undefined;
    for (const key of provenance.keys()) {
      const covers = path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`);
      if (covers && (best === undefined || key.length > best.length)) best = key;
    }
    return error(best === undefined ? undefined : provenance.get(best), reason, options);
  };
}
