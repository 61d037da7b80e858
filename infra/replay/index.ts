export { compareRecordedOrder, creationSecondsOf, lambdaRecordOf } from './lambdaRecord.js';
export { mergeShards, type ShardRecords } from './mergeShards.js';
export { type RecordedChange, recordedChange } from './recordedChange.js';
export { RecordedIdentities } from './recordedIdentities.js';
export { parseRecords, type RecordedRecord, ReplayInputError, readRecordFile } from './recordFile.js';
export {
  type RecordingResult,
  type RecordingStart,
  type RecordStreamOptions,
  recordStream,
} from './recordStream.js';
export { type ReplayOptions, type ReplayReport, type ReplaySummary, replay } from './replay.js';
export { ReplayClock } from './replayClock.js';
export { type DestinationDelivery, ReplayDestinations } from './replayDestinations.js';
export { ReplayFunctions, type ReplayInvocation } from './replayFunctions.js';
export { describeSettings, formatInvocation, formatSummary } from './replayReport.js';
export { chooseBinding, ReplayError, replayViewType, tableOfStreamArn } from './replaySetup.js';
export { ReplayKeyError, ReplaySource } from './replaySource.js';
export { type SampleEvent, type SampleEventOptions, sampleEvent, sampleRecord } from './sampleEvents.js';
export {
  clientConfig,
  type ServiceTarget,
  ServiceTargetError,
  type ServiceTargetOptions,
  serviceTarget,
} from './serviceTarget.js';
export { type SdkValue, wireMap, wireValue } from './wireAttributes.js';
