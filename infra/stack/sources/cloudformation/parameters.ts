/**
 * Template `Parameters`: each reference takes the override (`--parameter-overrides Key=Value`,
 * `startStack({ parameters })`), else the `Default`, checked against the constraints the
 * parameter declares as CloudFormation checks them at deploy time
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/parameters-section-structure.html).
 *
 * `AWS::SSM::Parameter::Value<...>` parameters name a Systems Manager parameter, which eddy does
 * not read: a reference needs an override, which is taken as the value itself.
 */
export interface TemplateParameter {
  readonly Type?: string;
  readonly Default?: unknown;
  readonly AllowedValues?: readonly unknown[];
  readonly AllowedPattern?: string;
  readonly MinLength?: number | string;
  readonly MaxLength?: number | string;
  readonly MinValue?: number | string;
  readonly MaxValue?: number | string;
}

/** Parameter values by name, as given on the command line (all strings, as CloudFormation takes them). */
export type ParameterValues = Readonly<Record<string, string>>;

/** The value of `Ref: <parameter>`: a string, or a list for list types. */
export function parameterValue(
  name: string,
  parameter: TemplateParameter,
  overrides: ParameterValues,
  fail: (reason: string) => never,
): string | string[] {
  const type = typeof parameter.Type === 'string' ? parameter.Type : 'String';
  const overridden = Object.hasOwn(overrides, name) ? overrides[name] : undefined;
  if (overridden === undefined && type.startsWith('AWS::SSM::Parameter::'))
    return fail(
      `parameter ${name} reads the Systems Manager parameter ${String(parameter.Default ?? '')}, which eddy does not: pass --parameter-overrides ${name}=<value>`,
    );
  const raw = overridden ?? parameter.Default;
  if (raw === undefined)
    return fail(`parameter ${name} has no Default: pass --parameter-overrides ${name}=<value>`);
  const text = Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
  const list = type === 'CommaDelimitedList' || type.startsWith('List<');
  const values = list ? text.split(',').map((item) => item.trim()) : [text];
  for (const value of values) check(name, parameter, type, value, fail);
  return list ? values : text;
}

function check(
  name: string,
  parameter: TemplateParameter,
  type: string,
  value: string,
  fail: (reason: string) => never,
): void {
  if (parameter.AllowedValues !== undefined && !parameter.AllowedValues.map(String).includes(value))
    fail(
      `parameter ${name} is '${value}', not one of its AllowedValues (${parameter.AllowedValues.join(', ')})`,
    );
  if (parameter.AllowedPattern !== undefined && !new RegExp(`^(?:${parameter.AllowedPattern})$`).test(value))
    fail(
      `parameter ${name} is '${value}', which does not match its AllowedPattern ${parameter.AllowedPattern}`,
    );
  if (parameter.MinLength !== undefined && value.length < Number(parameter.MinLength))
    fail(`parameter ${name} is shorter than its MinLength ${parameter.MinLength}`);
  if (parameter.MaxLength !== undefined && value.length > Number(parameter.MaxLength))
    fail(`parameter ${name} is longer than its MaxLength ${parameter.MaxLength}`);
  if (type === 'Number' || type === 'List<Number>') {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number))
      fail(`parameter ${name} is '${value}', not a number`);
    if (parameter.MinValue !== undefined && number < Number(parameter.MinValue))
      fail(`parameter ${name} is ${value}, below its MinValue ${parameter.MinValue}`);
    if (parameter.MaxValue !== undefined && number > Number(parameter.MaxValue))
      fail(`parameter ${name} is ${value}, above its MaxValue ${parameter.MaxValue}`);
  }
}

/**
 * `Key=Value` pairs of `--parameter-overrides`, and SAM CLI's long form
 * `ParameterKey=Key,ParameterValue=Value`.
 * @throws Error naming the pair that is neither.
 */
export function parseParameterOverrides(pairs: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const long = /^ParameterKey=([^,]+),ParameterValue=(.*)$/.exec(pair);
    const short = long === null ? /^([^=]+)=(.*)$/.exec(pair) : null;
    const match = long ?? short;
    if (match === null)
      throw new Error(`'${pair}' is not Key=Value (or ParameterKey=Key,ParameterValue=Value)`);
    Object.defineProperty(values, match[1]!, {
      value: match[2]!,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return values;
}
