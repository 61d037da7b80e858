// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Fn::Sub strings hold CloudFormation's ${...}, not JavaScript's.
import { describe, expect, it } from 'vitest';
import { TemplateResolver } from '../../../infra/stack/sources/cloudformation/intrinsics.js';
import { pseudoParametersOf } from '../../../infra/stack/sources/cloudformation/pseudoParameters.js';
import { parseYamlTemplate } from '../../../infra/stack/sources/cloudformation/templateFile.js';
import { TemplateError } from '../../../infra/stack/sources/index.js';

// CloudFormation's intrinsic functions as the docs define them
// (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html),
// written with the YAML short tags, resolved for a local stack in eu-west-1.
function resolverOf(yaml: string, parameters: Record<string, string> = {}, region = 'eu-west-1') {
  const file = parseYamlTemplate('template.yaml', yaml);
  return new TemplateResolver(file.template as never, {
    pseudo: pseudoParametersOf(region, '123456789012', 'shop'),
    parameters,
    fail: (path, reason) => {
      throw new TemplateError(file.file, file.locate(path), reason);
    },
  });
}

const TEMPLATE = `
Parameters:
  Env: { Type: String, Default: dev, AllowedValues: [dev, prod] }
  Sizes: { Type: CommaDelimitedList, Default: "1, 2,3" }
  Count: { Type: Number, Default: 3 }
Mappings:
  Regions:
    eu-west-1: { Suffix: eu }
    us-east-1: { Suffix: us }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsEurope: !Equals [!Select [0, !Split ['-', !Ref AWS::Region]], eu]
  EuropeanDev: !And [!Not [!Condition IsProd], !Condition IsEurope]
  CountIsThree: !Equals [!Ref Count, 3]
  Either: !Or [!Condition IsProd, !Condition CountIsThree]
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties: { TableName: !Sub '\${Env}-orders-\${AWS::Region}' }
  Audit:
    Type: AWS::Serverless::Function
  Failures:
    Type: AWS::SQS::Queue
  Alerts:
    Type: AWS::SNS::Topic
  Archive:
    Type: AWS::S3::Bucket
  ProdOnly:
    Type: AWS::SQS::Queue
    Condition: IsProd
`;

describe('intrinsic functions', () => {
  const resolver = resolverOf(TEMPLATE);
  const resolve = (value: unknown) => resolver.resolve(value, ['Test']);

  it('Ref gives parameters (defaults), pseudo parameters and resources their local values', () => {
    expect(resolve({ Ref: 'Env' })).toBe('dev');
    expect(resolve({ Ref: 'Sizes' })).toEqual(['1', '2', '3']);
    expect(resolve({ Ref: 'AWS::Region' })).toBe('eu-west-1');
    expect(resolve({ Ref: 'AWS::AccountId' })).toBe('123456789012');
    expect(resolve({ Ref: 'AWS::StackName' })).toBe('shop');
    expect(resolve({ Ref: 'AWS::Partition' })).toBe('aws');
    expect(resolve({ Ref: 'AWS::URLSuffix' })).toBe('amazonaws.com');
    expect(resolve({ Ref: 'Orders' })).toBe('dev-orders-eu-west-1');
    expect(resolve({ Ref: 'Audit' })).toBe('Audit');
    expect(resolve({ Ref: 'Failures' })).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/Failures');
    expect(resolve({ Ref: 'Alerts' })).toBe('arn:aws:sns:eu-west-1:123456789012:Alerts');
    expect(resolve({ Ref: 'Archive' })).toBe('archive');
  });

  it('Fn::GetAtt gives ARNs of the local resources', () => {
    expect(resolve({ 'Fn::GetAtt': ['Orders', 'Arn'] })).toBe(
      'arn:aws:dynamodb:eu-west-1:123456789012:table/dev-orders-eu-west-1',
    );
    expect(resolve({ 'Fn::GetAtt': ['Orders', 'StreamArn'] })).toMatch(
      /:table\/dev-orders-eu-west-1\/stream\//,
    );
    expect(resolve({ 'Fn::GetAtt': ['Audit', 'Arn'] })).toBe(
      'arn:aws:lambda:eu-west-1:123456789012:function:Audit',
    );
    expect(resolve({ 'Fn::GetAtt': ['Failures', 'Arn'] })).toBe(
      'arn:aws:sqs:eu-west-1:123456789012:Failures',
    );
    expect(resolve({ 'Fn::GetAtt': 'Failures.QueueName' })).toBe('Failures');
  });

  it('Fn::Sub takes a string or a string with variables, and ${!Literal} writes ${Literal}', () => {
    expect(resolve({ 'Fn::Sub': '${Env}/${Orders}/${Orders.Arn}/${!Literal}' })).toBe(
      'dev/dev-orders-eu-west-1/arn:aws:dynamodb:eu-west-1:123456789012:table/dev-orders-eu-west-1/${Literal}',
    );
    expect(resolve({ 'Fn::Sub': ['${Name}-${AWS::Region}', { Name: { Ref: 'Env' } }] })).toBe(
      'dev-eu-west-1',
    );
  });

  it('Fn::Join, Fn::Select, Fn::Split, Fn::Base64, Fn::GetAZs, Fn::Length, Fn::ToJsonString', () => {
    expect(resolve({ 'Fn::Join': [':', ['a', { Ref: 'Env' }, 3]] })).toBe('a:dev:3');
    expect(resolve({ 'Fn::Select': ['1', { Ref: 'Sizes' }] })).toBe('2');
    expect(resolve({ 'Fn::Split': [',', 'a,b'] })).toEqual(['a', 'b']);
    expect(resolve({ 'Fn::Base64': 'hi' })).toBe('aGk=');
    expect(resolve({ 'Fn::GetAZs': '' })).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    expect(resolve({ 'Fn::Length': { Ref: 'Sizes' } })).toBe(3);
    expect(resolve({ 'Fn::ToJsonString': { a: { Ref: 'Env' } } })).toBe('{"a":"dev"}');
  });

  it('Fn::If follows Conditions; AWS::NoValue removes the member', () => {
    expect(resolve({ 'Fn::If': ['IsProd', 'big', 'small'] })).toBe('small');
    expect(resolve({ 'Fn::If': ['EuropeanDev', 'yes', 'no'] })).toBe('yes');
    expect(resolve({ 'Fn::If': ['Either', 'yes', 'no'] })).toBe('yes');
    expect(resolve({ a: 1, b: { 'Fn::If': ['IsProd', 2, { Ref: 'AWS::NoValue' }] } })).toEqual({ a: 1 });
    expect(resolve([1, { Ref: 'AWS::NoValue' }, 2])).toEqual([1, 2]);
  });

  it('Fn::FindInMap reads Mappings with keys from other functions', () => {
    expect(resolve({ 'Fn::FindInMap': ['Regions', { Ref: 'AWS::Region' }, 'Suffix'] })).toBe('eu');
  });

  it('overrides win over defaults and are checked against AllowedValues', () => {
    expect(resolverOf(TEMPLATE, { Env: 'prod' }).resolve({ Ref: 'Orders' }, [])).toBe(
      'prod-orders-eu-west-1',
    );
    expect(() => resolverOf(TEMPLATE, { Env: 'qa' }).resolve({ Ref: 'Env' }, [])).toThrow(
      /parameter Env is 'qa', not one of its AllowedValues \(dev, prod\)/,
    );
  });

  it('follows the partition and URL suffix of China regions', () => {
    const china = resolverOf(TEMPLATE, {}, 'cn-north-1');
    expect(china.resolve({ 'Fn::GetAtt': ['Audit', 'Arn'] }, [])).toBe(
      'arn:aws-cn:lambda:cn-north-1:123456789012:function:Audit',
    );
    expect(china.resolve({ Ref: 'AWS::URLSuffix' }, [])).toBe('amazonaws.com.cn');
  });
});

describe('unresolvable references', () => {
  const failure = (yaml: string, value: unknown, path: (string | number)[]) => {
    try {
      resolverOf(yaml).resolve(value, path);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('resolved');
  };

  it('name the resource and the property, with the line and column', () => {
    const yaml =
      'Resources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Role: !Ref Missing\n';
    const role = parseYamlTemplate('t.yaml', yaml).template as {
      Resources: { Fn: { Properties: { Role: unknown } } };
    };
    expect(failure(yaml, role.Resources.Fn.Properties.Role, ['Resources', 'Fn', 'Properties', 'Role'])).toBe(
      "Bad template template.yaml:5:18 (Resources.Fn.Properties.Role.Ref): 'Missing' is not a parameter, a pseudo parameter or a resource of the template",
    );
  });

  it('Fn::ImportValue says eddy has no other stack', () => {
    expect(failure(TEMPLATE, { 'Fn::ImportValue': 'shared-table' }, ['Resources', 'Audit'])).toMatch(
      /Fn::ImportValue 'shared-table' reads an export of another stack, which eddy does not have/,
    );
  });

  it('a resource whose condition is false cannot be referred to', () => {
    expect(failure(TEMPLATE, { Ref: 'ProdOnly' }, ['Resources', 'Audit'])).toMatch(
      /resource 'ProdOnly' is not created \(its condition IsProd is false\)/,
    );
  });

  it('a parameter without Default needs an override', () => {
    expect(failure('Parameters:\n  Key: { Type: String }\n', { Ref: 'Key' }, [])).toMatch(
      /parameter Key has no Default: pass --parameter-overrides Key=<value>/,
    );
  });

  it('Systems Manager parameters need an override', () => {
    const yaml = "Parameters:\n  V: { Type: 'AWS::SSM::Parameter::Value<String>', Default: /cdk/version }\n";
    expect(failure(yaml, { Ref: 'V' }, [])).toMatch(/reads the Systems Manager parameter \/cdk\/version/);
  });

  it('functions eddy does not evaluate are named', () => {
    expect(failure(TEMPLATE, { 'Fn::Cidr': ['10.0.0.0/16', 2, 8] }, ['X'])).toMatch(
      /Fn::Cidr is not supported/,
    );
  });
});

describe('the YAML schema', () => {
  it('reads every short tag as its long form', () => {
    const { template } = parseYamlTemplate(
      't.yaml',
      [
        'a: !Ref X',
        'b: !GetAtt T.StreamArn',
        'c: !GetAtt [T, Arn]',
        "d: !Sub '${X}'",
        'e: !Join [",", [!Ref X, b]]',
        'f: !If [C, !Base64 x, !GetAZs ""]',
        'g: !Equals [!FindInMap [M, a, b], !Select [0, !Split [",", "a,b"]]]',
        'h: !And [!Not [!Condition C], !Or [!Condition C, !Condition D]]',
        'i: !ImportValue shared',
        'j: !Sub [x, { y: !Ref Z }]',
      ].join('\n'),
    );
    expect(template).toEqual({
      a: { Ref: 'X' },
      b: { 'Fn::GetAtt': ['T', 'StreamArn'] },
      c: { 'Fn::GetAtt': ['T', 'Arn'] },
      d: { 'Fn::Sub': '${X}' },
      e: { 'Fn::Join': [',', [{ Ref: 'X' }, 'b']] },
      f: { 'Fn::If': ['C', { 'Fn::Base64': 'x' }, { 'Fn::GetAZs': '' }] },
      g: {
        'Fn::Equals': [
          { 'Fn::FindInMap': ['M', 'a', 'b'] },
          { 'Fn::Select': [0, { 'Fn::Split': [',', 'a,b'] }] },
        ],
      },
      h: {
        'Fn::And': [
          { 'Fn::Not': [{ Condition: 'C' }] },
          { 'Fn::Or': [{ Condition: 'C' }, { Condition: 'D' }] },
        ],
      },
      i: { 'Fn::ImportValue': 'shared' },
      j: { 'Fn::Sub': ['x', { y: { Ref: 'Z' } }] },
    });
  });

  it('reports a syntax error with its line and column', () => {
    expect(() => parseYamlTemplate('t.yaml', 'Resources:\n  A: [1, 2\n')).toThrow(
      /^Bad template t\.yaml:\d+:\d+: not valid YAML/,
    );
  });
});
