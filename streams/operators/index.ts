export { groupByItemKey, itemKeyOf } from './groupByItemKey.js';
export { inserts } from './inserts.js';
export { modifies } from './modifies.js';
export { type EventName, ofEventName } from './ofEventName.js';
export { removes } from './removes.js';
export { isTtlRemoval, TTL_PRINCIPAL_ID, ttlRemovals } from './ttlRemovals.js';
export { type UnmarshalledChange, unmarshallImages } from './unmarshallImages.js';
export { whereChanged } from './whereChanged.js';
