import { LambdaClient, type LambdaClientConfig } from '@aws-sdk/client-lambda';
import type { AwsCredentialIdentity } from '@smithy/types';
import { LOCAL_ENDPOINT, LocalRequestHandler } from '../host/localClient.js';
import type { RequestPipeline } from '../host/pipeline.js';

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
  return new LambdaClient({
    ...options.client,
    region: options.region ?? pipeline.region,
    endpoint: LOCAL_ENDPOINT,
    credentials: options.credentials ?? { accessKeyId: 'eddy', secretAccessKey: 'eddy' },
    requestHandler: new LocalRequestHandler(pipeline),
  });
}
