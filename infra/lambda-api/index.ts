export { LambdaBackend, type LambdaBackendOptions, mappingInput } from './backend.js';
export { createLocalLambdaClient } from './localClient.js';
export { lambdaReadService, MAPPINGS_PATH } from './readService.js';
export { LAMBDA_OPERATIONS, lambdaService } from './service.js';
