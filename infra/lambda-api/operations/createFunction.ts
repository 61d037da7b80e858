import { InvalidParameterValueException, validationError } from '../errors.js';
import { createSettings } from '../functionSettings.js';
import { answer, type LambdaOperation } from '../operation.js';
import {
  FUNCTION_NAME_PATTERN,
  functionReference,
  jsonInput,
  optionalObject,
  optionalString,
  quote,
} from '../request.js';
import { zipFileOf } from './functionCode.js';

/** "If you specify only the function name, it is limited to 64 characters in length" (API reference). */
const MAX_NAME = 64;

/**
 * CreateFunction: a Node.js function from a .zip package (`Code.ZipFile`), unpacked and run like
 * the config's functions. Answers 201 with the configuration in state `Pending`.
 * https://docs.aws.amazon.com/lambda/latest/api/API_CreateFunction.html
 */
export const createFunction: LambdaOperation = {
  name: 'CreateFunction',
  method: 'POST',
  path: '/2015-03-31/functions',
  handle(backend, request) {
    const input = jsonInput(request);
    const { name } = functionReference(input.FunctionName, {
      pattern: FUNCTION_NAME_PATTERN,
      maxLength: 140,
    });
    if (name.length > MAX_NAME)
      throw validationError([
        {
          value: quote(name),
          member: 'functionName',
          constraint: `Member must have length less than or equal to ${MAX_NAME}`,
        },
      ]);
    const code = optionalObject(input, 'Code');
    if (code === undefined)
      throw validationError([{ value: 'null', member: 'code', constraint: 'Member must not be null' }]);
    const settings = createSettings(input);
    const packageType = optionalString(input, 'PackageType');
    if (packageType !== undefined && packageType !== 'Zip')
      throw new InvalidParameterValueException(
        `eddy runs .zip packages only: PackageType ${packageType} is not supported here.`,
      );
    const record = backend.createFunction(name, settings, zipFileOf(code));
    return answer(201, backend.catalog.configuration(record, 'created'));
  },
};
