import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TemplateError } from '../stackDefinition.js';

/**
 * `--cdk`: synthesizes a CDK app (the folder holding `cdk.json`) into its cloud assembly before
 * eddy reads it. With the CDK CLI installed in the project (`node_modules/.bin/cdk`) this runs
 * `cdk synth`; without it, eddy runs the `app` command of cdk.json itself, as the CLI does: the
 * assembly folder in `CDK_OUTDIR`, the context (cdk.json's and cdk.context.json's) in
 * `CDK_CONTEXT_JSON`, the target account and region in `CDK_DEFAULT_ACCOUNT` and
 * `CDK_DEFAULT_REGION`.
 * https://docs.aws.amazon.com/cdk/v2/guide/apps.html ("How AWS CDK apps are synthesized")
 *
 * @returns the cloud assembly's folder (cdk.json's `output`, default `cdk.out`).
 */
export interface CdkSynthOptions {
  readonly region: string;
  readonly accountId: string;
  /** Lines of the app's output, as it runs. */
  readonly print?: (line: string) => void;
}

interface CdkJson {
  readonly app?: string;
  readonly output?: string;
  readonly context?: Readonly<Record<string, unknown>>;
}

export async function synthesizeCdkApp(appDirectory: string, options: CdkSynthOptions): Promise<string> {
  const cdkJson = join(appDirectory, 'cdk.json');
  if (!existsSync(cdkJson)) throw new TemplateError(appDirectory, '', '--cdk needs a cdk.json in the folder');
  let settings: CdkJson;
  try {
    settings = JSON.parse(readFileSync(cdkJson, 'utf8')) as CdkJson;
  } catch (error) {
    throw new TemplateError(cdkJson, '', `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const output = resolve(appDirectory, settings.output ?? 'cdk.out');
  const cli = join(appDirectory, 'node_modules', '.bin', 'cdk');
  let command: string;
  let env: NodeJS.ProcessEnv = {
    ...process.env,
    CDK_DEFAULT_REGION: options.region,
    CDK_DEFAULT_ACCOUNT: options.accountId,
  };
  if (existsSync(cli)) command = `"${cli}" synth --quiet --output "${output}"`;
  else {
    if (typeof settings.app !== 'string' || settings.app === '')
      throw new TemplateError(cdkJson, '#/app', 'cdk.json names no app command');
    command = settings.app;
    const contextFile = join(appDirectory, 'cdk.context.json');
    const saved = existsSync(contextFile) ? (JSON.parse(readFileSync(contextFile, 'utf8')) as object) : {};
    env = {
      ...env,
      CDK_OUTDIR: output,
      CDK_CONTEXT_JSON: JSON.stringify({
        ...saved,
        ...settings.context,
        // What the CLI asks for by default: asset paths in the template's metadata.
        'aws:cdk:enable-asset-metadata': true,
        'aws:cdk:enable-path-metadata': true,
      }),
    };
  }
  await run(command, appDirectory, env, options.print, cdkJson);
  return output;
}

function run(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  print: ((line: string) => void) | undefined,
  cdkJson: string,
): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        print?.(line);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) =>
      fail(new TemplateError(cdkJson, '', `cdk synth could not start: ${error.message}`, { cause: error })),
    );
    child.on('close', (code) => {
      if (code === 0) done();
      else
        fail(
          new TemplateError(
            cdkJson,
            '',
            `\`${command}\` exited with code ${code}${tail.length > 0 ? `:\n${tail.join('\n')}` : ''}`,
          ),
        );
    });
  });
}
