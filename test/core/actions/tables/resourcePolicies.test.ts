import {
  CreateTableCommand,
  DeleteResourcePolicyCommand,
  DeleteTableCommand,
  GetResourcePolicyCommand,
  PutResourcePolicyCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../core/clock.js';
import { httpTransport, type TransportHandle } from '../../../helpers/transports.js';

/**
 * Resource-based policies: stored and answered, not enforced (docs/resource-policies.md). Texts and
 * revision rules from moto's aws_verified tests/test_dynamodb/test_dynamodb_resource_policy.py
 * (2026); API_PutResourcePolicy.html for `NO_POLICY` and the 20 KB limit.
 */
const ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/Orders';
const policy = (action: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Principal: { AWS: '000000000000' }, Effect: 'Allow', Action: [action], Resource: '*' }],
  });

let eddy: TransportHandle;
let clock: VirtualClock;
beforeEach(async () => {
  clock = new VirtualClock(Date.parse('2026-03-01T00:00:00Z'));
  eddy = await httpTransport.start({ engine: { clock } });
  await eddy.client.send(
    new CreateTableCommand({
      TableName: 'Orders',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
});
afterEach(() => eddy.close());

async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as Error;
    return { name: e.name, message: e.message };
  }
  throw new Error('expected the call to fail');
}

const put = (Policy: string, ExpectedRevisionId?: string) =>
  eddy.client.send(new PutResourcePolicyCommand({ ResourceArn: ARN, Policy, ExpectedRevisionId }));

describe('resource-based policies', () => {
  it('stores a policy and answers it with its revision', async () => {
    const { RevisionId } = await put(policy('dynamodb:*'));
    const got = await eddy.client.send(new GetResourcePolicyCommand({ ResourceArn: ARN }));
    expect(got).toMatchObject({ Policy: policy('dynamodb:*'), RevisionId });
  });

  it('keeps the revision for the same document and makes a greater one for another', async () => {
    const first = (await put(policy('dynamodb:*'))).RevisionId!;
    expect((await put(policy('dynamodb:*'))).RevisionId).toBe(first);
    clock.advance(1000);
    const second = (await put(policy('dynamodb:PutItem'))).RevisionId!;
    expect(second).not.toBe(first);
    expect(Number(second)).toBeGreaterThan(Number(first));
  });

  it('updates against the current revision, and refuses a former one', async () => {
    const first = (await put(policy('dynamodb:*'))).RevisionId!;
    const second = (await put(policy('dynamodb:PutItem'), first)).RevisionId!;
    expect(await failure(put(policy('dynamodb:GetItem'), first))).toEqual({
      name: 'PolicyNotFoundException',
      message: `Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id ${first}, but the policy associated to target table Orders has revision id ${second}.`,
    });
    expect((await eddy.client.send(new GetResourcePolicyCommand({ ResourceArn: ARN }))).RevisionId).toBe(
      second,
    );
  });

  it('takes NO_POLICY only when the table has none', async () => {
    const revision = (await put(policy('dynamodb:*'), 'NO_POLICY')).RevisionId!;
    expect(await failure(put(policy('dynamodb:GetItem'), 'NO_POLICY'))).toEqual({
      name: 'PolicyNotFoundException',
      message: `Resource-based policy not found for the provided ResourceArn: Requested policy update expecting none to be present for table Orders, but a policy exists with revision id ${revision}.`,
    });
  });

  it('answers PolicyNotFoundException for a table without a policy', async () => {
    expect(await failure(eddy.client.send(new GetResourcePolicyCommand({ ResourceArn: ARN })))).toEqual({
      name: 'PolicyNotFoundException',
      message: `Resource-based policy not found for the provided ResourceArn: ${ARN}`,
    });
  });

  it('answers ResourceNotFoundException, naming the table, for a table that is not there', async () => {
    for (const send of [
      () => put(policy('dynamodb:*')).then(() => undefined),
      () => eddy.client.send(new GetResourcePolicyCommand({ ResourceArn: ARN })),
      () => eddy.client.send(new DeleteResourcePolicyCommand({ ResourceArn: ARN })),
    ]) {
      await eddy.client.send(new DeleteTableCommand({ TableName: 'Orders' })).catch(() => undefined);
      expect(await failure(send())).toEqual({
        name: 'ResourceNotFoundException',
        message: 'Requested resource not found: Table: Orders not found',
      });
    }
  });

  it('deletes a policy, checked against the revision when one is given', async () => {
    const old = (await put(policy('dynamodb:*'))).RevisionId!;
    clock.advance(1000);
    const current = (await put(policy('dynamodb:PutItem'))).RevisionId!;
    expect(
      await failure(
        eddy.client.send(new DeleteResourcePolicyCommand({ ResourceArn: ARN, ExpectedRevisionId: old })),
      ),
    ).toEqual({
      name: 'PolicyNotFoundException',
      message: `Resource-based policy not found for the provided ResourceArn: Requested update for policy with revision id ${old}, but the policy associated to target table Orders has revision id ${current}.`,
    });
    const deleted = await eddy.client.send(
      new DeleteResourcePolicyCommand({ ResourceArn: ARN, ExpectedRevisionId: current }),
    );
    expect(deleted.RevisionId).toBe(current);
    expect(await failure(eddy.client.send(new GetResourcePolicyCommand({ ResourceArn: ARN })))).toMatchObject(
      {
        name: 'PolicyNotFoundException',
      },
    );
  });

  it('takes a policy with CreateTable', async () => {
    await eddy.client.send(
      new CreateTableCommand({
        TableName: 'Lines',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
        ResourcePolicy: policy('dynamodb:GetItem'),
      }),
    );
    const got = await eddy.client.send(
      new GetResourcePolicyCommand({ ResourceArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/Lines' }),
    );
    expect(got.Policy).toBe(policy('dynamodb:GetItem'));
  });

  // The texts DynamoDB answered in the ack-api-quirks lab, 2026-10-09: its ValidationException
  // catalogue (DDB-TABLE-442) and its degenerate inputs ('', '[]', 'null', '{}', Statement [] and
  // [{}], DDB-TABLE-457).
  const INVALID = 'One or more parameter values were invalid: ';
  const statement = (fields: Record<string, unknown>) =>
    JSON.stringify({ Version: '2012-10-17', Statement: [fields] });
  it.each([
    ['an empty text', '', `${INVALID}Invalid policy document: This policy contains invalid Json`],
    ['a JSON list', '[]', `${INVALID}Invalid policy document: This policy contains invalid Json`],
    [
      'text that is not JSON',
      'not json',
      `${INVALID}Invalid policy document: This policy contains invalid Json`,
    ],
    ['null', 'null', `${INVALID}Invalid policy document: This text appears not to be a policy`],
    ['an empty object', '{}', `${INVALID}Invalid policy document: Syntax error at position (1,3)`],
    [
      'an empty Statement',
      '{"Version":"2012-10-17","Statement":[]}',
      `${INVALID}Invalid policy document: Could not parse the policy: Statement is empty!`,
    ],
    [
      'a statement without Effect',
      statement({}),
      `${INVALID}Invalid policy document: Missing required field Effect`,
    ],
    [
      'a statement without Resource',
      statement({ Effect: 'Allow', Principal: { AWS: '000000000000' }, Action: 'dynamodb:GetItem' }),
      `${INVALID}Invalid policy document: Missing required field Resource`,
    ],
    [
      'two statements with one Sid',
      JSON.stringify({
        Statement: [
          {
            Sid: 'a',
            Effect: 'Allow',
            Principal: { AWS: '000000000000' },
            Action: 'dynamodb:GetItem',
            Resource: '*',
          },
          {
            Sid: 'a',
            Effect: 'Deny',
            Principal: { AWS: '000000000000' },
            Action: 'dynamodb:PutItem',
            Resource: '*',
          },
        ],
      }),
      `${INVALID}Invalid policy document: The Statement Ids in the policy are not unique`,
    ],
    [
      'a statement allowing everyone without a condition',
      statement({ Effect: 'Allow', Principal: '*', Action: 'dynamodb:GetItem', Resource: '*' }),
      'Resource-based policy grants unbounded access in one or more elements. Please revise the policy to ensure least-privilege form of access',
    ],
    [
      'a document over 20 KB',
      JSON.stringify({ Statement: [], Sid: 'x'.repeat(20 * 1024) }),
      `${INVALID}Maximum policy size of 20480 bytes exceeded`,
    ],
  ])('refuses %s with the service’s text', async (_case, document, message) => {
    expect(await failure(put(document))).toEqual({ name: 'ValidationException', message });
    await expect(eddy.client.send(new GetResourcePolicyCommand({ ResourceArn: ARN }))).rejects.toMatchObject({
      name: 'PolicyNotFoundException',
    });
  });

  it('takes a statement allowing everyone under a condition', async () => {
    const conditioned = statement({
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: 'dynamodb:GetItem',
      Resource: '*',
      Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-abc' } },
    });
    expect((await put(conditioned)).RevisionId).toBeDefined();
  });

  it("answers AccessDeniedException for another account's table, as the tagging operations do", async () => {
    expect(
      await failure(
        eddy.client.send(
          new GetResourcePolicyCommand({
            ResourceArn: 'arn:aws:dynamodb:us-east-1:111122223333:table/Orders',
          }),
        ),
      ),
    ).toMatchObject({ name: 'AccessDeniedException' });
  });
});
