import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BatchExecuteStatementCommand,
  CreateTableCommand,
  DuplicateItemException,
  ExecuteStatementCommand,
  ExecuteTransactionCommand,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { ExecuteStatementCommand as DocumentExecuteStatementCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpTransport, type TransportHandle, transports } from '../helpers/transports.js';

/** PartiQL through the AWS SDK for JavaScript v3 (both transports) and the AWS CLI (over HTTP). */
const MUSIC = {
  TableName: 'Music',
  BillingMode: 'PAY_PER_REQUEST' as const,
  AttributeDefinitions: [
    { AttributeName: 'Artist', AttributeType: 'S' as const },
    { AttributeName: 'SongTitle', AttributeType: 'S' as const },
  ],
  KeySchema: [
    { AttributeName: 'Artist', KeyType: 'HASH' as const },
    { AttributeName: 'SongTitle', KeyType: 'RANGE' as const },
  ],
};

describe.each(transports)('PartiQL through the SDK over $name', (transport) => {
  let eddy: TransportHandle;
  beforeEach(async () => {
    eddy = await transport.start();
    await eddy.client.send(new CreateTableCommand(MUSIC));
  });
  afterEach(() => eddy.close());

  it('inserts, selects with parameters and pages with the document client', async () => {
    await eddy.client.send(
      new ExecuteStatementCommand({
        Statement: `INSERT INTO Music VALUE {'Artist': 'Acme Band', 'SongTitle': 'PartiQL Rocks', 'Awards': 1}`,
      }),
    );
    await eddy.documents.send(
      new DocumentExecuteStatementCommand({
        Statement: `INSERT INTO Music VALUE {'Artist': ?, 'SongTitle': ?}`,
        Parameters: ['Acme Band', 'Happy Day'],
      }),
    );
    const page = await eddy.documents.send(
      new DocumentExecuteStatementCommand({
        Statement: `SELECT SongTitle, Awards FROM Music WHERE Artist = ?`,
        Parameters: ['Acme Band'],
        Limit: 1,
      }),
    );
    expect(page.Items).toEqual([{ SongTitle: 'Happy Day' }]);
    const rest = await eddy.documents.send(
      new DocumentExecuteStatementCommand({
        Statement: `SELECT SongTitle, Awards FROM Music WHERE Artist = ?`,
        Parameters: ['Acme Band'],
        NextToken: page.NextToken,
      }),
    );
    expect(rest.Items).toEqual([{ SongTitle: 'PartiQL Rocks', Awards: 1 }]);
  });

  it('throws the SDK classes of DuplicateItemException and TransactionCanceledException', async () => {
    const insert = `INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'B'}`;
    await eddy.client.send(new ExecuteStatementCommand({ Statement: insert }));
    const duplicate = await eddy.client
      .send(new ExecuteStatementCommand({ Statement: insert }))
      .catch((error) => error);
    expect(duplicate).toBeInstanceOf(DuplicateItemException);
    expect(duplicate.message).toBe('Duplicate primary key exists in table');
    expect(duplicate.$metadata.httpStatusCode).toBe(400);
    const cancelled = await eddy.client
      .send(
        new ExecuteTransactionCommand({
          TransactStatements: [
            { Statement: `UPDATE Music SET a = 1 WHERE Artist = 'x' AND SongTitle = 'y'` },
          ],
        }),
      )
      .catch((error) => error);
    expect(cancelled).toBeInstanceOf(TransactionCanceledException);
    expect(cancelled.CancellationReasons).toEqual([
      { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' },
    ]);
  });

  it('answers batch statements in order', async () => {
    const output = await eddy.client.send(
      new BatchExecuteStatementCommand({
        Statements: [
          { Statement: `INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'B'}` },
          { Statement: `DELETE FROM Music WHERE Artist = 'A'` },
        ],
      }),
    );
    // The refused statement never reached its table, so it names none (docs/partiql.md §4.2).
    expect(output.Responses).toEqual([
      { TableName: 'Music' },
      {
        Error: {
          Code: 'ValidationError',
          Message: 'Where clause does not contain a mandatory equality on all key attributes',
        },
      },
    ]);
  });
});

const execFileAsync = promisify(execFile);
/** Each `aws` run starts a Python interpreter (about 1 s of CPU): generous on a loaded machine. */
const CLI_TIMEOUT_MS = 120_000;

describe('PartiQL through the AWS CLI', () => {
  let eddy: TransportHandle;
  let directory: string;
  beforeAll(async () => {
    eddy = await httpTransport.start();
    await eddy.client.send(new CreateTableCommand(MUSIC));
    directory = mkdtempSync(join(tmpdir(), 'eddy-partiql-cli-'));
  });
  afterAll(async () => {
    await eddy?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  async function aws(...args: string[]): Promise<{ json?: unknown; code?: number; stderr?: string }> {
    try {
      const { stdout } = await execFileAsync(
        'aws',
        ['dynamodb', ...args, '--endpoint-url', eddy.endpoint!, '--output', 'json'],
        {
          env: {
            PATH: process.env.PATH,
            HOME: directory,
            AWS_ACCESS_KEY_ID: 'local',
            AWS_SECRET_ACCESS_KEY: 'local',
            AWS_DEFAULT_REGION: 'us-east-1',
            AWS_CONFIG_FILE: join(directory, 'no-aws-config'),
            AWS_SHARED_CREDENTIALS_FILE: join(directory, 'no-aws-credentials'),
          },
          timeout: CLI_TIMEOUT_MS,
        },
      );
      return { json: stdout.trim() === '' ? undefined : JSON.parse(stdout) };
    } catch (error) {
      const failed = error as { code?: number; stderr?: string };
      return { code: failed.code, stderr: failed.stderr?.trim() };
    }
  }

  it('runs execute-statement, batch-execute-statement and execute-transaction', {
    timeout: 4 * CLI_TIMEOUT_MS,
  }, async () => {
    expect(
      await aws(
        'execute-statement',
        '--statement',
        `INSERT INTO Music VALUE {'Artist':'Acme Band','SongTitle':'PartiQL Rocks'}`,
      ),
    ).toEqual({ json: { Items: [] } });
    // The transaction example of ql-reference.multiplestatements.transactions.html, from a file.
    const file = join(directory, 'partiql.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          Statement:
            "EXISTS(SELECT * FROM Music where Artist='No One You Know' and SongTitle='Call Me Today' and Awards is  MISSING)",
        },
        {
          Statement: "INSERT INTO Music value {'Artist':?,'SongTitle':?}",
          Parameters: [{ S: 'Acme Band' }, { S: 'Best Song' }],
        },
        {
          Statement:
            "UPDATE Music SET AwardsWon=1 SET AwardDetail={'Grammys':[2020, 2018]}  where Artist='Acme Band' and SongTitle='PartiQL Rocks'",
        },
      ]),
    );
    expect(await aws('execute-transaction', '--transact-statements', `file://${file}`)).toEqual({
      json: { Responses: [] },
    });
    expect(
      await aws(
        'execute-statement',
        '--statement',
        `SELECT SongTitle, AwardsWon FROM Music WHERE Artist = ?`,
        '--parameters',
        '[{"S":"Acme Band"}]',
      ),
    ).toEqual({
      json: {
        Items: [
          { SongTitle: { S: 'Best Song' } },
          { SongTitle: { S: 'PartiQL Rocks' }, AwardsWon: { N: '1' } },
        ],
      },
    });
    const duplicate = await aws(
      'execute-statement',
      '--statement',
      `INSERT INTO Music VALUE {'Artist':'Acme Band','SongTitle':'PartiQL Rocks'}`,
    );
    expect(duplicate.code).toBe(255);
    expect(duplicate.stderr).toBe(
      'An error occurred (DuplicateItemException) when calling the ExecuteStatement operation: Duplicate primary key exists in table',
    );
  });
});
