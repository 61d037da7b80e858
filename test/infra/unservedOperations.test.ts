import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListBulkOperationsCommand, StartBulkPutItemsCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DYNAMODB_TARGET_PREFIX } from '../../infra/host/services.js';
import { API_OPERATIONS } from '../../infra/host/unservedOperations.js';
import { httpTransport, type TransportHandle } from '../helpers/transports.js';
import { jsonHeaders, send } from './rawHttp.js';

/**
 * An operation of the DynamoDB API that eddy does not serve answers UnknownOperationException
 * naming it; a target of no API keeps the service's bare answer (docs/dynamodb.md §1.2.5).
 */
let eddy: TransportHandle;
beforeEach(async () => {
  eddy = await httpTransport.start();
});
afterEach(() => eddy.close());

describe('operations eddy does not serve', () => {
  it('answers UnknownOperationException with a message naming the operation', async () => {
    for (const [command, name] of [
      [new StartBulkPutItemsCommand({ TableName: 'Orders' } as never), 'StartBulkPutItems'],
      [new ListBulkOperationsCommand({}), 'ListBulkOperations'],
    ] as const) {
      const error = await eddy.client.send(command as never).then(
        () => undefined,
        (caught: Error & { $metadata?: { httpStatusCode?: number } }) => caught,
      );
      expect(error?.name).toBe('UnknownOperationException');
      expect(error?.message).toBe(`${name} is an operation of the DynamoDB API that eddy does not implement`);
      expect(error?.$metadata?.httpStatusCode).toBe(400);
    }
  });

  it('keeps the bare answer for a target of no API', async () => {
    const response = await send(eddy.endpoint!, {
      headers: jsonHeaders('DynamoDB_20120810.ListTable'),
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ __type: 'com.amazon.coral.service#UnknownOperationException' });
  });

  it('is listed in the README exactly as the engine leaves it unserved', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const section = /<!-- unserved-operations[^>]*-->\n([\s\S]*?)\n<!-- \/unserved-operations -->/.exec(
      readme,
    );
    const listed = [...(section?.[1] ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1]);
    const unserved = API_OPERATIONS[DYNAMODB_TARGET_PREFIX]!.filter(
      (operation) => !eddy.engine.supports(operation),
    );
    expect(listed).toEqual(unserved);
  });
});
