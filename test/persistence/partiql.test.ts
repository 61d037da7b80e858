import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbError } from '../../core/errors/index.js';
import { openHost, s, tempDir } from './helpers.js';

/**
 * PartiQL writes are ordinary commits, so the data directory keeps them; an ExecuteTransaction
 * token is kept like a TransactWriteItems one (docs/partiql.md §4.3, docs/dynamodb.md §7.3.4).
 */
let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('PartiQL and the data directory', () => {
  it('recovers PartiQL writes and remembers an ExecuteTransaction token across a restart', async () => {
    const host = await openHost(dir.path, { snapshotOnClose: false });
    host.engine.execute('CreateTable', {
      TableName: 'Music',
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'Artist', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'Artist', KeyType: 'HASH' }],
    });
    host.engine.execute('ExecuteStatement', { Statement: `INSERT INTO Music VALUE {'Artist': 'A', 'n': 1}` });
    host.engine.execute('ExecuteTransaction', {
      ClientRequestToken: 'tx-1',
      TransactStatements: [{ Statement: `UPDATE Music SET n = n + 1 WHERE Artist = 'A'` }],
    });
    await host.persistence.close();

    const again = await openHost(dir.path, { start: host.clock.now(), snapshotOnClose: false });
    expect(again.engine.execute('GetItem', { TableName: 'Music', Key: { Artist: s('A') } })).toEqual({
      Item: { Artist: s('A'), n: { N: '2' } },
    });
    let mismatch: string | undefined;
    try {
      again.engine.execute('ExecuteTransaction', {
        ClientRequestToken: 'tx-1',
        TransactStatements: [{ Statement: `DELETE FROM Music WHERE Artist = 'A'` }],
      });
    } catch (error) {
      mismatch = error instanceof DynamoDbError ? error.name : String(error);
    }
    expect(mismatch).toBe('IdempotentParameterMismatchException');
    await again.persistence.close();
  });
});
