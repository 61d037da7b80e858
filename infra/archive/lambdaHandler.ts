import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { createHandler } from '../../functions/archiver/handler.js';
import { s3Sink } from './archiveSink.js';
import { ARCHIVE_ENVIRONMENT, deployedSinkSettingsOf } from './lambdaEnvironment.js';

/**
 * The archiver as deployed to Lambda (`dist/functions/archiver`, built by `eddy build`).
 *
 * Locally the host hands the archiver its sink (`providePorts`); on Lambda nobody does, so this
 * entry builds an S3 sink from the environment `eddy synth` sets (`lambdaEnvironment.ts`), once per
 * execution environment, and passes it to the same handler the local stack runs. The S3 client
 * takes its region and credentials from the Lambda environment (AWS_REGION, the execution role).
 */
const settings = deployedSinkSettingsOf(process.env);

export const handler: (event: DynamoDBStreamEvent, context: never) => Promise<DynamoDBBatchResponse> =
  settings === undefined
    ? async () => {
        // Fails every batch, so the mapping retries them rather than losing them.
        throw new Error(`archiver: no bucket: set ${ARCHIVE_ENVIRONMENT.bucket} (eddy synth sets it)`);
      }
    : createHandler({ sink: s3Sink(settings) });
