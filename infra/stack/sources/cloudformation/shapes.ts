/** A map (not null, not a list): what a template section, a resource or an intrinsic call is. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
