import { randomUUID } from 'node:crypto';
import type { RestService } from '../host/restService.js';
import type { LambdaBackend } from './backend.js';
import { internalErrorAnswer, lambdaErrorAnswer, unknownOperationAnswer } from './errors.js';
import type { LambdaOperation } from './operation.js';
import { createEventSourceMapping } from './operations/createEventSourceMapping.js';
import { createFunction } from './operations/createFunction.js';
import { deleteEventSourceMapping } from './operations/deleteEventSourceMapping.js';
import { deleteFunction } from './operations/deleteFunction.js';
import { deleteFunctionConcurrency } from './operations/deleteFunctionConcurrency.js';
import { deleteFunctionEventInvokeConfig } from './operations/deleteFunctionEventInvokeConfig.js';
import { getEventSourceMapping } from './operations/getEventSourceMapping.js';
import { getFunction } from './operations/getFunction.js';
import { getFunctionConcurrency } from './operations/getFunctionConcurrency.js';
import { getFunctionConfiguration } from './operations/getFunctionConfiguration.js';
import { getFunctionEventInvokeConfig } from './operations/getFunctionEventInvokeConfig.js';
import { invoke } from './operations/invoke.js';
import { invokeAsync } from './operations/invokeAsync.js';
import { listEventSourceMappings } from './operations/listEventSourceMappings.js';
import { listFunctions } from './operations/listFunctions.js';
import { putFunctionConcurrency } from './operations/putFunctionConcurrency.js';
import { putFunctionEventInvokeConfig } from './operations/putFunctionEventInvokeConfig.js';
import { updateEventSourceMapping } from './operations/updateEventSourceMapping.js';
import { updateFunctionCode } from './operations/updateFunctionCode.js';
import { updateFunctionConfiguration } from './operations/updateFunctionConfiguration.js';
import { updateFunctionEventInvokeConfig } from './operations/updateFunctionEventInvokeConfig.js';

/** The operations eddy serves, one file each under `operations/`. */
export const LAMBDA_OPERATIONS: readonly LambdaOperation[] = [
  listFunctions,
  createFunction,
  getFunction,
  getFunctionConfiguration,
  updateFunctionCode,
  updateFunctionConfiguration,
  deleteFunction,
  invoke,
  invokeAsync,
  createEventSourceMapping,
  listEventSourceMappings,
  getEventSourceMapping,
  updateEventSourceMapping,
  deleteEventSourceMapping,
  putFunctionEventInvokeConfig,
  updateFunctionEventInvokeConfig,
  getFunctionEventInvokeConfig,
  deleteFunctionEventInvokeConfig,
  putFunctionConcurrency,
  getFunctionConcurrency,
  deleteFunctionConcurrency,
];

/** Lambda's paths start with an API version (`/2015-03-31/`, `/2019-09-25/`, ...). */
const LAMBDA_PATH = /^\/\d{4}-\d{2}-\d{2}\//;

/**
 * The AWS Lambda API (REST-JSON, SigV4 service `lambda`) as a REST service of the host, on the
 * same port as DynamoDB: `aws lambda ... --endpoint-url`, `@aws-sdk/client-lambda` and boto3 talk
 * to it unchanged. Request ids are UUIDs, as Lambda's are.
 *
 * @example
 * ```ts
 * pipeline.registerRestService(lambdaService(backend));
 * ```
 */
export function lambdaService(backend: LambdaBackend): RestService {
  return {
    name: 'Lambda',
    signingName: 'lambda',
    owns: (path) => LAMBDA_PATH.test(path),
    routes: LAMBDA_OPERATIONS.map((operation) => ({
      method: operation.method,
      path: operation.path,
      operation: operation.name,
      handle: (request, context) => operation.handle(backend, request, context),
    })),
    unknownRoute: (request) => unknownOperationAnswer(request.method, request.path),
    errorAnswer: lambdaErrorAnswer,
    internalError: internalErrorAnswer,
    newRequestId: randomUUID,
  };
}
