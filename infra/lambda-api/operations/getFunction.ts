import { answer, type LambdaOperation } from '../operation.js';
import { targetFunction } from './shared.js';

/** Where eddy serves a function's package (`Code.Location`), on its own read API. */
export const CODE_PATH = '/_eddy/api/functions/{FunctionName}/code';

/**
 * GetFunction: the configuration and where to download the package. Lambda's `Code.Location` is
 * a presigned S3 URL valid for ten minutes; eddy's points at itself (the package as uploaded).
 * A config function runs its module from the project, so it has no package to download.
 * https://docs.aws.amazon.com/lambda/latest/api/API_GetFunction.html
 */
export const getFunction: LambdaOperation = {
  name: 'GetFunction',
  method: 'GET',
  path: '/2015-03-31/functions/{FunctionName}',
  handle(backend, request) {
    const record = targetFunction(backend, request);
    const host = request.header('host');
    const code: Record<string, string> = { RepositoryType: 'S3' };
    if (record.code !== undefined && host !== undefined)
      code.Location = `http://${host}${CODE_PATH.replace('{FunctionName}', encodeURIComponent(record.name))}`;
    const body: Record<string, unknown> = {
      Configuration: backend.catalog.configuration(record),
      Code: code,
    };
    // `Concurrency` only when the function reserves some (docs/lambda-api.md §8.1).
    const reserved = backend.functions.concurrency.get(record.name);
    if (reserved !== undefined) body.Concurrency = { ReservedConcurrentExecutions: reserved };
    return answer(200, body);
  },
};
