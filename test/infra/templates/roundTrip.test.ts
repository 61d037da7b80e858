import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSynthCommand } from '../../../infra/cli/commands/synth.js';
import { loadConfig } from '../../../infra/cli/loadConfig.js';
import type { EddyConfig } from '../../../infra/config.js';
import { runCommand } from '../../helpers/command.js';

// `eddy synth` is the reverse of the config loader (docs/templates.md §7): the template it writes, read back
// with --template, runs the same stack as the config it came from.
const ROOT = join(import.meta.dirname, '..', '..', '..');
let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-round-trip-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * What a running stack is made of, as a user sees it through the APIs and the test kit; the
 * archive's folder as the path it names (the template writes it relative to its own folder).
 */
async function shapeOf(stack: TestStack, baseDirectory: string) {
  const tables = [];
  for (const name of [...stack.engine.region().tables.keys()].sort()) {
    const { Table } = await stack.client.send(new DescribeTableCommand({ TableName: name }));
    const { TableId: _, ...table } = Table!;
    const ttl = await stack.client.send(new DescribeTimeToLiveCommand({ TableName: name }));
    tables.push({ table, ttl: ttl.TimeToLiveDescription });
  }
  const functions = stack.stack.functions
    .names()
    .sort()
    .map((name) => {
      const { handler: _, ...definition } = stack.stack.functions.get(name)!.definition;
      return definition;
    });
  const mappings = stack.stack.mappings
    .list()
    .EventSourceMappings.sort((a, b) => a.UUID!.localeCompare(b.UUID!));
  const schedules = [...stack.stack.schedules].map(([name, runs]) => [name, runs.map((run) => run.rateMs)]);
  const archive = stack.stack.config.archive;
  const sink =
    archive?.sink.type === 'files'
      ? { ...archive.sink, directory: resolve(baseDirectory, archive.sink.directory) }
      : archive?.sink;
  return {
    tables,
    functions,
    mappings,
    schedules,
    archive: archive === undefined ? undefined : { ...archive, sink },
  };
}

async function roundTrip(configFile: string, baseDirectory: string) {
  const out = join(directory, `synth-${Math.random().toString(36).slice(2)}`, 'template.yaml');
  const synth = await runCommand(addSynthCommand, ['synth', '--config', configFile, '--out', out], directory);
  expect(synth.code).toBe(0);
  const config = await loadConfig(configFile);
  const fromConfig = await startStack(config, { baseDirectory });
  const fromTemplate = await startStack({ template: out });
  try {
    expect(await shapeOf(fromTemplate, dirname(out))).toEqual(await shapeOf(fromConfig, baseDirectory));
  } finally {
    await fromConfig.close();
    await fromTemplate.close();
  }
}

describe('eddy synth, read back with --template', () => {
  it('gives the same stack as the votes example', async () => {
    await roundTrip(join(ROOT, 'examples', 'votes', 'eddy.config.ts'), join(ROOT, 'examples', 'votes'));
  });

  it('gives the same stack with indexes, schedules, workers, every kind of destination and local settings', async () => {
    const project = join(directory, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'src', 'handlers.mjs'),
      'export const audit = async () => {};\nexport const report = async () => {};\n',
    );
    const config: EddyConfig = {
      tables: [
        {
          TableName: 'Orders',
          BillingMode: 'PROVISIONED',
          ProvisionedThroughput: { ReadCapacityUnits: 3, WriteCapacityUnits: 2 },
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'status', AttributeType: 'S' },
          ],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          GlobalSecondaryIndexes: [
            {
              IndexName: 'byStatus',
              KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
              Projection: { ProjectionType: 'ALL' },
              ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
            },
          ],
          StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
          TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
          Tags: [{ Key: 'team', Value: 'shop' }],
        },
      ],
      functions: {
        audit: {
          handler: './src/handlers.mjs',
          exportName: 'audit',
          isolation: 'worker',
          timeout: 20,
          memorySize: 512,
          environment: { LEVEL: 'debug' },
          events: [
            {
              stream: {
                table: 'Orders',
                BatchSize: 7,
                DestinationConfig: {
                  OnFailure: { Destination: 'arn:aws:sqs:us-east-1:000000000000:audit-failures' },
                },
              },
            },
          ],
        },
        'audit-sns': {
          handler: './src/handlers.mjs',
          exportName: 'audit',
          events: [
            {
              stream: {
                table: 'Orders',
                StartingPosition: 'LATEST',
                DestinationConfig: {
                  OnFailure: { Destination: 'arn:aws:sns:us-east-1:000000000000:audit-topic' },
                },
              },
            },
          ],
        },
        'audit-s3': {
          handler: './src/handlers.mjs',
          exportName: 'audit',
          events: [
            {
              stream: {
                table: 'Orders',
                Enabled: false,
                DestinationConfig: { OnFailure: { Destination: 'arn:aws:s3::000000000000:audit-bucket' } },
              },
            },
          ],
        },
        report: {
          handler: './src/handlers.mjs',
          exportName: 'report',
          events: [{ schedule: { rate: 'rate(2 hours)' } }],
        },
      },
      ttl: { rate: '30s' },
      streams: { shardCount: 2 },
      destinationsDirectory: '.eddy/failures',
    };
    writeFileSync(join(project, 'eddy.config.json'), JSON.stringify(config));
    await roundTrip(join(project, 'eddy.config.json'), project);
  });
});
