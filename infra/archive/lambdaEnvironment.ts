import type { ArchiveFormat } from './layout.js';

/**
 * The deployed archiver's settings, as environment variables: `eddy synth` writes them into the
 * archiver's `Environment` and its Lambda entry (`lambdaHandler.ts`) reads them back, so the two
 * sides share these names. (Lambda reserves `AWS_*` names, hence the `EDDY_` prefix:
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime)
 */
export const ARCHIVE_ENVIRONMENT = {
  bucket: 'EDDY_ARCHIVE_BUCKET',
  prefix: 'EDDY_ARCHIVE_PREFIX',
  format: 'EDDY_ARCHIVE_FORMAT',
  storageClass: 'EDDY_ARCHIVE_STORAGE_CLASS',
} as const;

/** What the deployed archiver's sink is told: the bucket and how to write into it. */
export interface DeployedSinkSettings<Bucket = string> {
  readonly bucket: Bucket;
  readonly prefix?: string;
  readonly format?: ArchiveFormat;
  readonly storageClass?: string;
}

/** The environment variables of the settings (a template passes the bucket as `{ Ref: ... }`). */
export function archiveEnvironmentOf<Bucket>(
  settings: DeployedSinkSettings<Bucket>,
): Record<string, Bucket | string> {
  return {
    [ARCHIVE_ENVIRONMENT.bucket]: settings.bucket,
    ...(settings.prefix ? { [ARCHIVE_ENVIRONMENT.prefix]: settings.prefix } : {}),
    ...(settings.format ? { [ARCHIVE_ENVIRONMENT.format]: settings.format } : {}),
    ...(settings.storageClass ? { [ARCHIVE_ENVIRONMENT.storageClass]: settings.storageClass } : {}),
  };
}

/** The settings an environment carries, or `undefined` when it names no bucket. */
export function deployedSinkSettingsOf(
  environment: Readonly<Record<string, string | undefined>>,
): DeployedSinkSettings | undefined {
  const bucket = environment[ARCHIVE_ENVIRONMENT.bucket];
  if (!bucket) return undefined;
  const prefix = environment[ARCHIVE_ENVIRONMENT.prefix];
  const format = environment[ARCHIVE_ENVIRONMENT.format];
  const storageClass = environment[ARCHIVE_ENVIRONMENT.storageClass];
  if (format && format !== 'json' && format !== 'parquet') {
    throw new TypeError(`${ARCHIVE_ENVIRONMENT.format} must be json or parquet, got '${format}'`);
  }
  return {
    bucket,
    ...(prefix ? { prefix } : {}),
    ...(format ? { format: format as ArchiveFormat } : {}),
    ...(storageClass ? { storageClass } : {}),
  };
}
