import { InvalidParameterValueException } from '../errors.js';
import { answer, type LambdaOperation } from '../operation.js';
import { maxItems } from './shared.js';

/** "ListFunctions returns a maximum of 50 items in each response" (API reference). */
const PAGE = 50;

/**
 * ListFunctions: every function, by name, 50 at most per page; `NextMarker` continues.
 * https://docs.aws.amazon.com/lambda/latest/api/API_ListFunctions.html
 */
export const listFunctions: LambdaOperation = {
  name: 'ListFunctions',
  method: 'GET',
  path: '/2015-03-31/functions',
  handle(backend, request) {
    const limit = Math.min(maxItems(request) ?? PAGE, PAGE);
    const marker = request.query.get('Marker');
    let after: string | undefined;
    if (marker !== null) {
      const decoded = Buffer.from(marker, 'base64url').toString('utf8');
      // eddy's wording: Lambda's markers are opaque and its message for a forged one unrecorded.
      if (!decoded.startsWith('fn:')) throw new InvalidParameterValueException(`Invalid marker: ${marker}`);
      after = decoded.slice(3);
    }
    const all = backend.catalog.list().filter((record) => after === undefined || record.name > after);
    const page = all.slice(0, limit);
    const body: Record<string, unknown> = {
      Functions: page.map((record) => backend.catalog.configuration(record)),
    };
    if (all.length > limit) body.NextMarker = Buffer.from(`fn:${page.at(-1)!.name}`).toString('base64url');
    return answer(200, body);
  },
};
