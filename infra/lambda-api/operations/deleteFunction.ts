import { InvalidParameterValueException } from '../errors.js';
import type { LambdaOperation } from '../operation.js';
import { functionReference } from '../request.js';

/**
 * DeleteFunction: answers 204 with no body. Its mappings stay (as in Lambda) and fail their
 * invocations until a function of that name exists again.
 * https://docs.aws.amazon.com/lambda/latest/api/API_DeleteFunction.html
 */
export const deleteFunction: LambdaOperation = {
  name: 'DeleteFunction',
  method: 'DELETE',
  path: '/2015-03-31/functions/{FunctionName}',
  handle(backend, request) {
    const reference = functionReference(request.params.FunctionName);
    const qualifier = reference.qualifier ?? request.query.get('Qualifier') ?? undefined;
    if (qualifier === '$LATEST')
      // Lambda's message: the unpublished version goes only with the function.
      throw new InvalidParameterValueException(
        '$LATEST version cannot be deleted without deleting the function.',
      );
    backend.catalog.require(reference.name, qualifier);
    backend.deleteFunction(reference.name);
    return { status: 204 };
  },
};
