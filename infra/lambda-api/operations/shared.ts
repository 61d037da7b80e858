import type { RestRequest } from '../../host/restService.js';
import type { LambdaBackend } from '../backend.js';
import { InvalidParameterValueException, validationError } from '../errors.js';
import type { FunctionRecord } from '../functionCatalog.js';
import { functionReference, quote } from '../request.js';

/**
 * The function a request's `{FunctionName}` (and `?Qualifier=`) names. eddy runs `$LATEST`
 * only: another qualifier is a version or alias that does not exist.
 * @throws ResourceNotFoundException; InvalidParameterValueException when the name's qualifier
 *   and the query's disagree (Lambda's message).
 */
export function targetFunction(backend: LambdaBackend, request: RestRequest): FunctionRecord {
  const reference = functionReference(request.params.FunctionName);
  const queried = request.query.get('Qualifier') ?? undefined;
  if (queried !== undefined && reference.qualifier !== undefined && queried !== reference.qualifier)
    throw new InvalidParameterValueException(
      'The derived qualifier from the function name does not match the specified qualifier.',
    );
  return backend.catalog.require(reference.name, reference.qualifier ?? queried);
}

/** `MaxItems` of the List operations: 1..10000 (the service model's MaxListItems). */
export function maxItems(request: RestRequest): number | undefined {
  const text = request.query.get('MaxItems');
  if (text === null) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < 1 || value > 10_000)
    throw validationError([
      {
        value: quote(text),
        member: 'maxItems',
        constraint:
          /^-?\d+$/.test(text) && value > 10_000
            ? 'Member must have value less than or equal to 10000'
            : 'Member must have value greater than or equal to 1',
      },
    ]);
  return value;
}
