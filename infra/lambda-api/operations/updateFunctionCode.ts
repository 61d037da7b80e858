import { PreconditionFailedException } from '../errors.js';
import type { FunctionRecord } from '../functionCatalog.js';
import { answer, type LambdaOperation } from '../operation.js';
import { jsonInput, optionalBoolean, optionalString } from '../request.js';
import { zipFileOf } from './functionCode.js';
import { targetFunction } from './shared.js';

/**
 * UpdateFunctionCode: a new package; the next invocation (and a mapping's next batch) runs it.
 * `DryRun` checks the request and changes nothing.
 * https://docs.aws.amazon.com/lambda/latest/api/API_UpdateFunctionCode.html
 */
export const updateFunctionCode: LambdaOperation = {
  name: 'UpdateFunctionCode',
  method: 'PUT',
  path: '/2015-03-31/functions/{FunctionName}/code',
  handle(backend, request) {
    const current = targetFunction(backend, request);
    const input = jsonInput(request);
    checkRevision(current, optionalString(input, 'RevisionId'));
    const zip = zipFileOf(input);
    if (optionalBoolean(input, 'DryRun') === true)
      return answer(200, backend.catalog.configuration(current, 'updated'));
    const record = backend.updateFunctionCode(current.name, zip);
    return answer(200, backend.catalog.configuration(record, 'updated'));
  },
};

/** Optimistic locking: an update naming another revision than the current one is refused. */
export function checkRevision(record: FunctionRecord, revisionId: string | undefined): void {
  if (revisionId !== undefined && revisionId !== record.revisionId)
    throw new PreconditionFailedException(
      'The Revision Id provided does not match the latest Revision Id. Call the GetFunction/GetAlias API to retrieve the latest Revision Id',
    );
}
