import type { CfnResource, CfnTemplate } from './intrinsics.js';
import { isObject } from './shapes.js';

/**
 * SAM's `Globals` section: properties every resource of a type starts from, merged the way the SAM
 * transform merges them, before anything is resolved: a scalar (or an intrinsic function) of the
 * resource replaces the global one, maps are merged key by key (the resource's value wins), and
 * lists are the global items followed by the resource's.
 * https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-specification-template-anatomy-globals.html
 */
const GLOBAL_SECTIONS: Readonly<Record<string, string>> = {
  Function: 'AWS::Serverless::Function',
  SimpleTable: 'AWS::Serverless::SimpleTable',
};

/** The template with its Globals merged into the resources they apply to. */
export function applyGlobals(template: CfnTemplate): CfnTemplate {
  const globals = template.Globals;
  if (!isObject(globals) || template.Resources === undefined) return template;
  const resources: Record<string, CfnResource> = {};
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    const section = Object.entries(GLOBAL_SECTIONS).find(([, type]) => type === resource.Type)?.[0];
    const defaults = section === undefined ? undefined : globals[section];
    resources[logicalId] = isObject(defaults)
      ? { ...resource, Properties: merge(defaults, resource.Properties ?? {}) as Record<string, unknown> }
      : resource;
  }
  return { ...template, Resources: resources };
}

function merge(global: unknown, local: unknown): unknown {
  if (Array.isArray(global) && Array.isArray(local)) return [...global, ...local];
  if (isPlainMap(global) && isPlainMap(local)) {
    // Object.fromEntries keeps every key an own property (`__proto__` included).
    return Object.fromEntries([
      ...Object.entries(global).filter(([key]) => !Object.hasOwn(local, key)),
      ...Object.entries(local).map(([key, value]) => [
        key,
        Object.hasOwn(global, key) ? merge(global[key], value) : value,
      ]),
    ]);
  }
  return local;
}

/** A map that is not an intrinsic function (`{ Ref: ... }`, `{ 'Fn::Sub': ... }` are values). */
function isPlainMap(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return !(keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::')));
}
