import { readFileSync } from 'node:fs';
import type { RestService } from '../host/restService.js';
import type { LambdaBackend } from './backend.js';
import { internalErrorAnswer, lambdaErrorAnswer } from './errors.js';
import { CODE_PATH } from './operations/getFunction.js';

/** eddy's read endpoints of the Lambda side (JSON, unsigned, like `/_eddy/health`). */
export const MAPPINGS_PATH = '/_eddy/api/mappings';

/**
 * What the Lambda API cannot tell and `eddy mappings` shows: each mapping's run-time state
 * (iterator age, backlog, counters, destination deliveries), and the packages GetFunction's
 * `Code.Location` points at. Open like the health check: eddy is a local tool, and Lambda's own
 * package URLs are presigned, needing no credentials either.
 *
 * - `GET /_eddy/api/mappings`: `{ "Mappings": [MappingInspection...] }` (the API's and the
 *   config's mappings; internal ones such as the gsi-maintainer's are left out).
 * - `GET /_eddy/api/functions/<name>/code`: the function's .zip as uploaded.
 */
export function lambdaReadService(backend: LambdaBackend): RestService {
  return {
    name: 'EddyLambdaRead',
    signingName: undefined,
    owns: (path) => path === MAPPINGS_PATH || path.startsWith('/_eddy/api/functions/'),
    routes: [
      {
        method: 'GET',
        path: MAPPINGS_PATH,
        operation: 'ListMappingStates',
        handle: () => {
          const listed = new Set(backend.listedMappings().map((mapping) => mapping.UUID));
          const Mappings = backend.mappings.inspect().filter((mapping) => listed.has(mapping.uuid));
          return { status: 200, body: { Mappings } };
        },
      },
      {
        method: 'GET',
        path: CODE_PATH,
        operation: 'GetFunctionCode',
        handle: (request) => {
          const record = backend.catalog.require(request.params.FunctionName!);
          if (record.code === undefined)
            return {
              status: 404,
              body: { message: `${record.name} runs its module from the project: no package` },
            };
          return { status: 200, body: readFileSync(record.code.zipFile), contentType: 'application/zip' };
        },
      },
    ],
    unknownRoute: (request) => ({ status: 404, body: { message: `No eddy endpoint at ${request.path}` } }),
    errorAnswer: lambdaErrorAnswer,
    internalError: internalErrorAnswer,
  };
}
