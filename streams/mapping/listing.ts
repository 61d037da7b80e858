import type { EventSourceMappingConfiguration } from './configuration.js';
import { InvalidParameterValueException } from './errors.js';
import type { EventSourceMapping } from './eventSourceMapping.js';
import { functionNameOf } from './invoke.js';

/** ListEventSourceMappings' filters and paging members. */
export interface MappingListFilter {
  readonly EventSourceArn?: string;
  readonly FunctionName?: string;
  readonly Marker?: string;
  readonly MaxItems?: number;
}

export interface MappingListPage {
  EventSourceMappings: EventSourceMappingConfiguration[];
  NextMarker?: string;
}

/** "ListEventSourceMappings returns a maximum of 100 items in each response" (API reference). */
const LIST_PAGE = 100;

/**
 * One page of ListEventSourceMappings: the mappings matching the filters, in creation order, at
 * most `MaxItems` and never more than 100; `NextMarker` (opaque: the creation number of the
 * page's last mapping) continues after it, even if mappings were deleted meanwhile.
 * @throws InvalidParameterValueException for a marker that is not one of these.
 */
export function listMappings(
  mappings: readonly { readonly mapping: EventSourceMapping; readonly sequence: number }[],
  filter: MappingListFilter,
  configuration: (mapping: EventSourceMapping) => EventSourceMappingConfiguration,
): MappingListPage {
  const name = filter.FunctionName === undefined ? undefined : functionNameOf(filter.FunctionName);
  let after = 0;
  if (filter.Marker !== undefined) {
    const decoded = Buffer.from(filter.Marker, 'base64url').toString('utf8');
    after = /^esm:\d+$/.test(decoded) ? Number(decoded.slice(4)) : Number.NaN;
    // eddy's wording: Lambda's markers are opaque and its message for a forged one unrecorded.
    if (Number.isNaN(after)) throw new InvalidParameterValueException(`Invalid marker: ${filter.Marker}`);
  }
  const pageSize = Math.min(filter.MaxItems ?? LIST_PAGE, LIST_PAGE);
  const matching = mappings.filter(
    ({ mapping, sequence }) =>
      sequence > after &&
      (filter.EventSourceArn === undefined || mapping.eventSourceArn === filter.EventSourceArn) &&
      (name === undefined || mapping.fn.functionName === name),
  );
  const page = matching.slice(0, pageSize);
  const EventSourceMappings = page.map(({ mapping }) => configuration(mapping));
  if (matching.length <= pageSize) return { EventSourceMappings };
  return {
    EventSourceMappings,
    NextMarker: Buffer.from(`esm:${page.at(-1)!.sequence}`).toString('base64url'),
  };
}
