import type { RestRequest } from '../../host/restService.js';
import type { LambdaBackend } from '../backend.js';
import { InvalidParameterValueException, ResourceNotFoundException } from '../errors.js';
import type { EventInvokeConfig, FunctionRecord } from '../functionCatalog.js';
import { checkRanges, jsonInput, optionalInteger, optionalObject, optionalString } from '../request.js';
import { targetFunction } from './shared.js';

/**
 * What Put/Update/Get/DeleteFunctionEventInvokeConfig share: reading the settings of
 * asynchronous invocations (retries 0..2, event age 60..21600 s, destinations) and answering
 * FunctionEventInvokeConfig.
 * https://docs.aws.amazon.com/lambda/latest/api/API_PutFunctionEventInvokeConfig.html
 */

export function configuredFunction(backend: LambdaBackend, request: RestRequest): FunctionRecord {
  return targetFunction(backend, request);
}

/** The settings a request gives, merged over `current` (Update) or alone (Put). */
export function readEventInvokeConfig(
  request: RestRequest,
  current: EventInvokeConfig | undefined,
  now: number,
): EventInvokeConfig {
  const input = jsonInput(request);
  const retries = optionalInteger(input, 'MaximumRetryAttempts');
  const age = optionalInteger(input, 'MaximumEventAgeInSeconds');
  checkRanges([
    [retries, 'maximumRetryAttempts', 0, 2],
    [age, 'maximumEventAgeInSeconds', 60, 21_600],
  ]);
  const destinations = optionalObject(input, 'DestinationConfig');
  const onSuccess = destinationOf(destinations, 'OnSuccess');
  const onFailure = destinationOf(destinations, 'OnFailure');
  return {
    maximumRetryAttempts: retries ?? current?.maximumRetryAttempts,
    maximumEventAgeInSeconds: age ?? current?.maximumEventAgeInSeconds,
    onSuccess: destinations === undefined ? current?.onSuccess : onSuccess,
    onFailure: destinations === undefined ? current?.onFailure : onFailure,
    lastModified: now,
  };
}

/**
 * A destination: an SQS queue, SNS topic, Lambda function or (on failure only) S3 bucket, which
 * eddy keeps locally. EventBridge buses are Lambda's but not eddy's.
 */
function destinationOf(
  destinations: Record<string, unknown> | undefined,
  condition: 'OnSuccess' | 'OnFailure',
): string | undefined {
  const member = destinations === undefined ? undefined : optionalObject(destinations, condition);
  const arn = member === undefined ? undefined : optionalString(member, 'Destination');
  if (arn === undefined || arn === '') return undefined;
  const service = /^arn:aws[a-zA-Z-]*:([a-z0-9-]+):/.exec(arn)?.[1];
  if (service === 'sqs' || service === 'sns' || service === 'lambda') return arn;
  if (service === 's3' && condition === 'OnFailure') return arn;
  // eddy's wording (the service names its own checks of destination ARNs).
  throw new InvalidParameterValueException(
    `The destination ${arn} is not supported by eddy for ${condition}: use an SQS queue, SNS topic, Lambda function${condition === 'OnFailure' ? ' or S3 bucket' : ''} ARN.`,
  );
}

/** FunctionEventInvokeConfig as Lambda answers it. */
export function eventInvokeConfigAnswer(
  backend: LambdaBackend,
  record: FunctionRecord,
): Record<string, unknown> {
  const config = record.eventInvokeConfig;
  if (config === undefined)
    // Lambda's message (moto's `UnknownEventConfig`, from recorded answers).
    throw new ResourceNotFoundException(
      `The function ${backend.catalog.arn(record.name)} doesn't have an EventInvokeConfig`,
    );
  const body: Record<string, unknown> = {
    LastModified: config.lastModified / 1000,
    FunctionArn: `${backend.catalog.arn(record.name)}:$LATEST`,
  };
  if (config.maximumRetryAttempts !== undefined) body.MaximumRetryAttempts = config.maximumRetryAttempts;
  if (config.maximumEventAgeInSeconds !== undefined)
    body.MaximumEventAgeInSeconds = config.maximumEventAgeInSeconds;
  body.DestinationConfig = {
    OnSuccess: config.onSuccess === undefined ? {} : { Destination: config.onSuccess },
    OnFailure: config.onFailure === undefined ? {} : { Destination: config.onFailure },
  };
  return body;
}
