/**
 * Terraform's JSON syntax (`*.tf.json`): the same configuration as `*.tf`, as JSON. It is turned
 * into the shape `@cdktf/hcl2json` gives `*.tf` files, so the rest of the loader reads both alike:
 * each labelled block (`resource "type" "name"`, `variable "name"`...) is a list of bodies, and
 * each nested block a list of one body per block. JSON cannot tell a nested block from a map
 * argument without the provider's schema; the nested blocks eddy reads are named here (a map
 * such as `tags` or `environment.variables` stays a map). Expressions are `${...}` templates in
 * both. Properties named `//` are comments and are dropped.
 * https://developer.hashicorp.com/terraform/language/syntax/json
 */

/** Nested blocks of the resources eddy reads (aws provider): an object there is one block. */
const NESTED_BLOCKS = new Set([
  'attribute',
  'ttl',
  'global_secondary_index',
  'local_secondary_index',
  'point_in_time_recovery',
  'server_side_encryption',
  'replica',
  'on_demand_throughput',
  'environment',
  'dead_letter_config',
  'tracing_config',
  'ephemeral_storage',
  'image_config',
  'vpc_config',
  'logging_config',
  'snap_start',
  'filter_criteria',
  'filter',
  'destination_config',
  'on_failure',
  'on_success',
  'scaling_config',
  'target',
  'flexible_time_window',
  'retry_policy',
  'input_transformer',
  'validation',
  'lifecycle',
  'timeouts',
  'source',
]);

/** Blocks with two labels (type, name), one label (name), or none. */
const TWO_LABELS = new Set(['resource', 'data']);
const ONE_LABEL = new Set(['variable', 'output', 'module', 'provider']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `*.tf.json` file's object, in hcl2json's shape. */
export function fromJsonSyntax(file: Json): Json {
  const out: Json = {};
  for (const [kind, value] of Object.entries(file)) {
    if (kind === '//') continue;
    if (TWO_LABELS.has(kind) && isObject(value)) {
      const types: Json = {};
      for (const [type, named] of Object.entries(value)) {
        if (type === '//' || !isObject(named)) continue;
        const names: Json = {};
        for (const [name, body] of Object.entries(named)) if (name !== '//') names[name] = bodies(body);
        types[type] = names;
      }
      out[kind] = types;
    } else if (ONE_LABEL.has(kind) && isObject(value)) {
      const names: Json = {};
      for (const [name, body] of Object.entries(value)) if (name !== '//') names[name] = bodies(body);
      out[kind] = names;
    } else if (kind === 'locals' || kind === 'terraform') {
      // Locals are values, not blocks: only comments go.
      out[kind] = (Array.isArray(value) ? value : [value]).map((body) =>
        isObject(body) ? withoutComments(body, kind === 'terraform') : body,
      );
    } else out[kind] = value;
  }
  return out;
}

/** One body or a list of them (a block given several times), each normalised. */
function bodies(value: unknown): unknown[] {
  return (Array.isArray(value) ? value : [value]).map((body) => (isObject(body) ? block(body) : body));
}

/** A block body: its nested blocks become lists of bodies; its arguments stay as they are. */
function block(body: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === '//') continue;
    if (NESTED_BLOCKS.has(key) && (isObject(value) || (Array.isArray(value) && value.every(isObject))))
      out[key] = bodies(value);
    else out[key] = value;
  }
  return out;
}

function withoutComments(body: Json, nested: boolean): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(body))
    if (key !== '//') out[key] = nested && isObject(value) ? [withoutComments(value, true)] : value;
  return out;
}
