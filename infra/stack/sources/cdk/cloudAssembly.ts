import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CodeSource } from '../cloudformation/handlerCode.js';
import type { CfnResource } from '../cloudformation/intrinsics.js';
import { TemplateError } from '../stackDefinition.js';

/**
 * A CDK cloud assembly (`cdk.out/`): `manifest.json` lists its artifacts; each CloudFormation
 * stack names its template file, and the asset manifests say which local folder or file each
 * asset's S3 object is built from.
 * https://docs.aws.amazon.com/cdk/v2/guide/deploy.html ("cloud assembly")
 *
 * Stages (nested assemblies) are read too; their stacks are the assembly's stacks.
 */
export interface AssemblyStack {
  /** The stack's name (`AWS::StackName`). */
  readonly stackName: string;
  /** The artifact id, e.g. `Shop` or `Prod/Shop` in a stage. */
  readonly id: string;
  readonly templateFile: string;
  /** The folder of the assembly holding it (asset paths start here). */
  readonly directory: string;
}

export interface CloudAssembly {
  readonly directory: string;
  readonly stacks: readonly AssemblyStack[];
  /** A Lambda function's local code, from its asset metadata or its S3 object key. */
  codeOf(stack: AssemblyStack, resource: CfnResource): CodeSource | undefined;
}

interface Manifest {
  readonly artifacts?: Readonly<Record<string, Artifact>>;
}

interface Artifact {
  readonly type?: string;
  readonly properties?: {
    readonly templateFile?: string;
    readonly stackName?: string;
    readonly file?: string;
    readonly directoryName?: string;
  };
}

interface AssetManifest {
  readonly files?: Readonly<
    Record<
      string,
      {
        readonly source?: { readonly path?: string; readonly packaging?: string };
        readonly destinations?: Readonly<Record<string, { readonly objectKey?: string }>>;
      }
    >
  >;
}

export function readCloudAssembly(directory: string): CloudAssembly {
  const stacks: AssemblyStack[] = [];
  /** S3 object key → the local file or folder it is built from. */
  const assets = new Map<string, { path: string; packaging: string }>();
  readAssembly(directory, '', stacks, assets, 0);
  return {
    directory,
    stacks,
    codeOf(stack, resource) {
      const metadata = resource.Metadata ?? {};
      if (metadata['aws:asset:property'] === 'Code' && typeof metadata['aws:asset:path'] === 'string')
        return codeAt(resolve(stack.directory, metadata['aws:asset:path']));
      const code = resource.Properties?.Code as { S3Key?: unknown } | undefined;
      const key = typeof code?.S3Key === 'string' ? code.S3Key : undefined;
      const asset = key === undefined ? undefined : assets.get(key);
      return asset === undefined ? undefined : codeAt(asset.path);
    },
  };
}

function codeAt(path: string): CodeSource {
  if (!existsSync(path))
    return { kind: 'unavailable', reason: `the asset ${path} is missing: synthesize the app again` };
  return statSync(path).isDirectory() ? { kind: 'directory', directory: path } : { kind: 'zip', file: path };
}

/** Stages nest assemblies; a few levels at most in practice, 10 is a generous bound. */
const MAX_DEPTH = 10;

function readAssembly(
  directory: string,
  prefix: string,
  stacks: AssemblyStack[],
  assets: Map<string, { path: string; packaging: string }>,
  depth: number,
): void {
  const manifestFile = join(directory, 'manifest.json');
  if (!existsSync(manifestFile))
    throw new TemplateError(
      directory,
      '',
      'no manifest.json: not a cloud assembly (run `cdk synth`, or pass --cdk)',
    );
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch (error) {
    throw new TemplateError(manifestFile, '', `not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    const properties = artifact.properties ?? {};
    if (artifact.type === 'aws:cloudformation:stack' && typeof properties.templateFile === 'string') {
      stacks.push({
        id: `${prefix}${id}`,
        stackName: properties.stackName ?? id,
        templateFile: join(directory, properties.templateFile),
        directory,
      });
    } else if (artifact.type === 'cdk:asset-manifest' && typeof properties.file === 'string') {
      readAssets(join(directory, properties.file), directory, assets);
    } else if (artifact.type === 'cdk:cloud-assembly' && typeof properties.directoryName === 'string') {
      if (depth >= MAX_DEPTH)
        throw new TemplateError(directory, '', `stages nest deeper than ${MAX_DEPTH} levels`);
      readAssembly(join(directory, properties.directoryName), `${prefix}${id}/`, stacks, assets, depth + 1);
    }
  }
}

function readAssets(
  file: string,
  directory: string,
  assets: Map<string, { path: string; packaging: string }>,
): void {
  if (!existsSync(file)) return;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as AssetManifest;
  for (const asset of Object.values(manifest.files ?? {})) {
    const path = asset.source?.path;
    if (path === undefined) continue;
    for (const destination of Object.values(asset.destinations ?? {})) {
      if (destination.objectKey !== undefined)
        assets.set(destination.objectKey, {
          path: resolve(directory, path),
          packaging: asset.source?.packaging ?? 'file',
        });
    }
  }
}
