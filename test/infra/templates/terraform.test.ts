import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startStack, type TestStack } from 'eddy/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadStack } from '../../../infra/stack/sources/index.js';
import { type StackWatcher, watchStack } from '../../../infra/stack/watchStack.js';
import {
  failedPaymentsReachTheDestination,
  placedOrdersAreFiltered,
  type ShopNames,
  theScheduleRuns,
} from './shopApp.js';

// The Terraform fixture (test/fixtures/templates/terraform): the shop as *.tf files, its tables in
// a local module, its functions zipped by archive_file, read without terraform.
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'templates', 'terraform');
const NAMES: ShopNames = {
  ordersTable: 'test-orders',
  paymentsTable: 'payments',
  onPlacedOrder: 'on-placed-order',
  onPayment: 'on-payment',
  nightly: 'test-nightly',
};

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'eddy-terraform-'));
  cpSync(FIXTURE, directory, { recursive: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
/** A configuration folder of its own: the fixture's handlers and these files. */
function configuration(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'eddy-tf-'));
  folders.push(folder);
  cpSync(join(FIXTURE, 'src'), join(folder, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}
const TABLE = (name: string, extra = '') => `
resource "aws_dynamodb_table" "${name}" {
  name             = "${name}"
  billing_mode     = "PAY_PER_REQUEST"
  hash_key         = "id"
  stream_enabled   = true
  stream_view_type = "NEW_IMAGE"
  attribute {
    name = "id"
    type = "S"
  }
${extra}}
`;

it('is real Terraform: terraform fmt takes the fixture as it is', () => {
  // terraform is installed here and on CI; eddy itself never runs it.
  execFileSync('terraform', ['fmt', '-check', '-recursive', FIXTURE], { stdio: 'pipe' });
});

describe('a Terraform configuration run by startStack({ template, variables })', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ template: directory, variables: { stage: 'test' } });
  });
  afterAll(() => stack.close());

  it('runs the filtered stream handler on INSERTs of placed orders only', async () => {
    await placedOrdersAreFiltered(stack, NAMES);
  });

  it('retries a partial batch failure and sends the rest to the on-failure destination', async () => {
    await failedPaymentsReachTheDestination(stack, NAMES);
  });

  it('runs the function a CloudWatch Events rule targets at its rate', async () => {
    await theScheduleRuns(stack, NAMES);
  });

  it('creates the local module tables with every argument', async () => {
    const orders = (await stack.client.send(new DescribeTableCommand({ TableName: 'test-orders' }))).Table!;
    expect(orders.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(orders.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const payments = (await stack.client.send(new DescribeTableCommand({ TableName: 'payments' }))).Table!;
    expect(payments.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(payments.GlobalSecondaryIndexes?.[0]).toMatchObject({
      IndexName: 'byStatus',
      Projection: { ProjectionType: 'KEYS_ONLY' },
      ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    });
    expect(payments.ProvisionedThroughput?.ReadCapacityUnits).toBe(5);
  });

  it('gives functions their arguments and Lambda defaults, environment through locals and merge()', () => {
    expect(stack.stack.functions.get('on-payment')!.definition).toMatchObject({
      timeout: 3,
      memorySize: 256,
      environment: { ORDERS_TABLE: 'test-orders', STAGE: 'test', PAYMENTS_TABLE: 'payments' },
    });
    // The sources archive_file zips run, not a zip: build/handlers.zip was never made.
    expect(stack.stack.functions.get('on-placed-order')!.definition.module).toBe(
      join(directory, 'src', 'orders.mjs'),
    );
  });

  it('keeps the Python function with its mapping disabled', () => {
    const mappings = stack.stack.mappings.list({ FunctionName: 'legacy-audit' }).EventSourceMappings;
    expect(mappings.map((mapping) => mapping.State)).toEqual(['Disabled']);
  });
});

describe('finding and reading a Terraform configuration', () => {
  it('is found in the working folder; what eddy does not run is listed by type', async () => {
    const definition = (await loadStack({ cwd: directory }))!;
    expect(definition.origin).toMatchObject({
      format: 'terraform',
      kind: 'Terraform configuration',
      discovered: true,
    });
    expect(definition.config.tables?.map((table) => table.TableName)).toEqual(['dev-orders', 'payments']);
    expect(definition.notices).toEqual(['ignored: 1 aws_iam_role, 1 aws_lambda_permission']);
    expect(definition.watchFiles.map((file) => file.slice(directory.length + 1)).sort()).toEqual([
      'main.tf',
      'modules/tables/main.tf',
      'variables.tf',
    ]);
  });

  it('comes after the other formats in a folder that has several; a .tf file names its folder', async () => {
    const folder = configuration({
      'main.tf': TABLE('from-terraform'),
      'serverless.yml': 'service: s\n',
    });
    expect((await loadStack({ cwd: folder }))!.origin.format).toBe('serverless');
    expect((await loadStack({ cwd: folder, template: '.' }))!.origin.format).toBe('serverless');
    const chosen = (await loadStack({ cwd: folder, template: 'main.tf' }))!;
    expect(chosen.origin).toMatchObject({ format: 'terraform', file: folder, discovered: false });
    expect(chosen.config.tables?.map((table) => table.TableName)).toEqual(['from-terraform']);
  });

  it('takes variables from terraform.tfvars, *.auto.tfvars, --var-file and --var, later winning', async () => {
    const folder = configuration({
      'main.tf': `
variable "name" {
  type = string
}
variable "size" {
  type    = number
  default = 1
}
variable "on" {
  type    = bool
  default = false
}
variable "tags" {
  type    = map(string)
  default = {}
}
resource "aws_dynamodb_table" "t" {
  name           = var.name
  hash_key       = "id"
  read_capacity  = var.size
  write_capacity = var.on ? 2 : 3
  tags           = var.tags
  attribute {
    name = "id"
    type = "S"
  }
}
`,
      'terraform.tfvars': 'name = "from-tfvars"\nsize = 4\n',
      'b.auto.tfvars': 'name = "from-auto"\n',
      'extra.tfvars': 'on = true\n',
    });
    const read = async (options: object) =>
      (await loadStack({ cwd: folder, ...options }))!.config.tables![0]!;
    expect(await read({})).toMatchObject({
      TableName: 'from-auto',
      ProvisionedThroughput: { ReadCapacityUnits: 4, WriteCapacityUnits: 3 },
    });
    expect(
      await read({ varFiles: ['extra.tfvars'], variables: { name: 'from-var', tags: '{ team = "shop" }' } }),
    ).toMatchObject({
      TableName: 'from-var',
      ProvisionedThroughput: { ReadCapacityUnits: 4, WriteCapacityUnits: 2 },
      Tags: [{ Key: 'team', Value: 'shop' }],
    });
    await expect(read({ variables: { nope: 'x' } })).rejects.toThrow(
      /a value for undeclared variable 'nope'/,
    );
  });

  it('reads every event source mapping argument, scheduler schedules and count = 0', async () => {
    const folder = configuration({
      'main.tf': `${TABLE('things')}
data "aws_region" "here" {}
resource "aws_lambda_function" "f" {
  function_name = "f-\${data.aws_region.here.name}"
  filename      = "f.zip"
  handler       = "orders.onPlacedOrder"
  runtime       = "nodejs20.x"
}
data "archive_file" "f" {
  type        = "zip"
  source_dir  = "src"
  output_path = "f.zip"
}
resource "aws_sns_topic" "alerts" {
  name = "alerts"
}
resource "aws_lambda_event_source_mapping" "all" {
  event_source_arn                   = aws_dynamodb_table.things.stream_arn
  function_name                      = aws_lambda_function.f.function_name
  starting_position                  = "LATEST"
  batch_size                         = 100
  maximum_batching_window_in_seconds = 2
  maximum_retry_attempts             = 3
  maximum_record_age_in_seconds      = 120
  bisect_batch_on_function_error     = true
  parallelization_factor             = 2
  tumbling_window_in_seconds         = 30
  function_response_types            = ["ReportBatchItemFailures"]
  enabled                            = false
  filter_criteria {
    filter {
      pattern = jsonencode({ eventName = ["MODIFY"] })
    }
    filter {
      pattern = "{\\"eventName\\": [\\"REMOVE\\"]}"
    }
  }
  destination_config {
    on_failure {
      destination_arn = aws_sns_topic.alerts.arn
    }
  }
}
resource "aws_scheduler_schedule" "hourly" {
  name                = "hourly"
  schedule_expression = "rate(1 hour)"
  state               = "DISABLED"
  flexible_time_window {
    mode = "OFF"
  }
  target {
    arn      = aws_lambda_function.f.arn
    role_arn = "arn:aws:iam::000000000000:role/scheduler"
  }
}
resource "aws_dynamodb_table" "gone" {
  count    = 0
  name     = "gone"
  hash_key = "id"
  attribute {
    name = "id"
    type = "S"
  }
}
`,
    });
    const definition = (await loadStack({ cwd: folder, region: 'eu-west-1' }))!;
    expect(definition.config.tables?.map((table) => table.TableName)).toEqual(['things']);
    expect(definition.config.functions?.['f-eu-west-1']?.events).toEqual([
      {
        stream: {
          table: 'things',
          StartingPosition: 'LATEST',
          BatchSize: 100,
          MaximumBatchingWindowInSeconds: 2,
          MaximumRetryAttempts: 3,
          MaximumRecordAgeInSeconds: 120,
          BisectBatchOnFunctionError: true,
          ParallelizationFactor: 2,
          TumblingWindowInSeconds: 30,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          Enabled: false,
          FilterCriteria: {
            Filters: [{ Pattern: '{"eventName":["MODIFY"]}' }, { Pattern: '{"eventName": ["REMOVE"]}' }],
          },
          DestinationConfig: { OnFailure: { Destination: 'arn:aws:sns:eu-west-1:000000000000:alerts' } },
        },
      },
      { schedule: { rate: 'rate(1 hour)', Enabled: false } },
    ]);
  });

  it('refuses a module from the registry, naming the block', async () => {
    const folder = configuration({
      'main.tf':
        'module "table" {\n  source  = "terraform-aws-modules/dynamodb-table/aws"\n  version = "4.0.0"\n}\n',
    });
    await expect(loadStack({ cwd: folder })).rejects.toThrow(
      /main\.tf:2 \(module\.table\.source\): 'terraform-aws-modules\/dynamodb-table\/aws' is a module from a registry or repository, which eddy does not download/,
    );
  });

  it('names the file, line and argument of a reference it cannot follow, and of a cycle', async () => {
    const missing = configuration({
      'main.tf': `${TABLE('t')}resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_dynamodb_table.t.stream_arn
  function_name    = aws_lambda_function.nope.arn
}
`,
    });
    await expect(loadStack({ cwd: missing })).rejects.toThrow(
      /main\.tf:15 \(resource\.aws_lambda_event_source_mapping\.m\.function_name\): 'aws_lambda_function\.nope' is not a resource, variable or local of this module/,
    );
    const cycle = configuration({
      'main.tf': `locals {
  a = "\${local.b}-x"
  b = local.a
}
${TABLE('t').replace('name             = "t"', 'name             = local.a')}`,
    });
    await expect(loadStack({ cwd: cycle })).rejects.toThrow(
      /the references form a cycle: .*locals:a → locals:b → locals:a/,
    );
  });

  it('says where HCL does not parse', async () => {
    const folder = configuration({ 'main.tf': 'resource "aws_dynamodb_table" "t" {\n  name = \n' });
    await expect(loadStack({ cwd: folder })).rejects.toThrow(/main\.tf: not valid HCL: .*main\.tf:/s);
  });
});

describe('a Terraform configuration changed under --watch', () => {
  it('creates the new table and applies the changed mapping, keeping the data', async () => {
    const main = (batch: number, extra: string) => `${TABLE('orders')}
data "archive_file" "src" {
  type        = "zip"
  source_dir  = "\${path.module}/src"
  output_path = "\${path.module}/build/src.zip"
}
resource "aws_lambda_function" "f" {
  function_name = "on-order"
  filename      = data.archive_file.src.output_path
  handler       = "orders.onPlacedOrder"
  runtime       = "nodejs22.x"
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn  = aws_dynamodb_table.orders.stream_arn
  function_name     = aws_lambda_function.f.arn
  starting_position = "TRIM_HORIZON"
  batch_size        = ${batch}
}
${extra}`;
    const folder = configuration({ 'main.tf': main(10, '') });
    const stack = await startStack({ template: folder });
    let watcher: StackWatcher | undefined;
    try {
      const definition = (await loadStack({ cwd: folder }))!;
      let reconciled: (lines: readonly string[]) => void = () => {};
      const next = new Promise<readonly string[]>((resolve) => (reconciled = resolve));
      watcher = watchStack(stack.stack, definition, {
        reload: async () => (await loadStack({ cwd: folder }))!,
        print: () => {},
        cwd: folder,
        debounceMs: 20,
        onReconciled: (lines) => reconciled(lines),
      });
      const put = (id: string) =>
        stack.client.send(
          new PutItemCommand({ TableName: 'orders', Item: { id: { S: id }, orderId: { S: id } } }),
        );
      await put('o-1');
      await stack.settled();
      writeFileSync(join(folder, 'main.tf'), main(2, TABLE('returns')));
      expect(await next).toEqual([
        '+ table returns',
        '~ on-order ← orders stream: BatchSize (from where it stopped)',
      ]);
      expect(stack.stack.mappings.list({ FunctionName: 'on-order' }).EventSourceMappings).toMatchObject([
        { BatchSize: 2 },
      ]);
      await put('o-2');
      await stack.settled();
      expect(stack.invocations('on-order')).toHaveLength(2);
    } finally {
      watcher?.close();
      await stack.close();
    }
  });
});

describe("a schedule target's input", () => {
  it('is the event the function gets, in place of the Scheduled Event', async () => {
    const folder = configuration({
      'main.tf': `
resource "aws_lambda_function" "report" {
  function_name = "report"
  filename      = "src.zip"
  handler       = "nightly.handler"
  runtime       = "nodejs22.x"
}
data "archive_file" "src" {
  type        = "zip"
  source_dir  = "src"
  output_path = "src.zip"
}
resource "aws_cloudwatch_event_rule" "daily" {
  name                = "daily"
  schedule_expression = "rate(1 day)"
}
resource "aws_cloudwatch_event_target" "report" {
  rule  = aws_cloudwatch_event_rule.daily.name
  arn   = aws_lambda_function.report.arn
  input = jsonencode({ report = "daily", detail-type = "Report" })
}
`,
    });
    const stack = await startStack({ template: folder });
    try {
      await stack.advance('1d');
      expect(stack.invocations('report').map((invocation) => invocation.event)).toEqual([
        { 'detail-type': 'Report', report: 'daily' },
      ]);
    } finally {
      await stack.close();
    }
  });
});
