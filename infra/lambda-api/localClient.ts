import { createRequire } from 'node:module';
import type { LambdaClient, LambdaClientConfig } from '@aws-sdk/client-lambda';
import type { AwsCredentialIdentity } from '@smithy/types';
import { LOCAL_ENDPOINT, LocalRequestHandler } from '../host/localClient.js';
import type { RequestPipeline } from '../host/pipeline.js';

// Loaded with the first client: a test that never provisions through the Lambda API does not pay
// for the SDK's Lambda client (~0.1 s of CPU, bench/startup.ts). CommonJS in Node either way, so
// `require` gives the classes the test's own `import` does.
let sdk: typeof import('@aws-sdk/client-lambda') | undefined;

/**
 * A real `LambdaClient` with no socket, answered by the pipeline's Lambda API in process (the
 * same `LocalRequestHandler` as the in-process DynamoDB client): the SDK's middleware runs
 * unchanged, errors are the SDK's own classes.
 *
 * @example
 * ```ts
 * const lambda = createLocalLambdaClient(stack.pipeline());
 * await lambda.send(new ListEventSourceMappingsCommand({}));
 * ```
 */
export function createLocalLambdaClient(
  pipeline: RequestPipeline,
  options: {
    readonly region?: string;
    readonly credentials?: AwsCredentialIdentity;
    readonly client?: Omit<LambdaClientConfig, 'endpoint' | 'requestHandler' | 'region' | 'credentials'>;
  } = {},
): LambdaClient {
  sdk ??= createRequire(import.meta.url)('@aws-sdk/client-lambda') as typeof import('@aws-sdk/client-lambda');
  return new sdk.LambdaClient({
    ...options.client,
    region: options.region ?? pipeline.region,
    endpoint: LOCAL_ENDPOINT,
    credentials: options.credentials ?? { accessKeyId: 'eddy', secretAccessKey: 'eddy' },
    requestHandler: new LocalRequestHandler(pipeline),
  });
}
