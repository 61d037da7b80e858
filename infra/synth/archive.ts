import { archiverBinding } from '../archive/binding.js';
import { archiveEnvironmentOf } from '../archive/lambdaEnvironment.js';
import type { ArchiveConfig } from '../config.js';
import {
  type FunctionContext,
  policyDocumentOf,
  type SamEvent,
  samFunction,
  streamEvent,
  templatePath,
} from './functions.js';
import { streamViewTypeOf } from './tables.js';
import { type PolicyStatement, pascalCase, ref, SynthError, type TemplateResource } from './template.js';

/**
 * TTL archival, deployed: the built-in archiver as a function bound to each archived table's
 * stream, and the S3 bucket it writes to.
 *
 * The mapping settings, the TTL filter first of all, come from `archiverBinding` (what the local
 * stack binds), so the deployed archiver receives exactly the records the local one does: REMOVE
 * records whose userIdentity is the DynamoDB service principal
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-streams.html).
 *
 * The ttl-expirer and the gsi-maintainer are not deployed: DynamoDB deletes expired items and
 * keeps global secondary indexes itself; eddy runs them only to do locally what the service does.
 */

/**
 * The archiver's name: the local stack's for one table (infra/stack/localStack.ts). Locally each
 * further table gets a function of its own; deployed, one function takes an event per table (same
 * code, same sink, one role), and each event is its own event source mapping all the same.
 */
export const ARCHIVER_NAME = 'archiver';

/** A sink that is never called: `archiverBinding` wants one, synth only reads its mapping. */
const UNUSED_SINK = {
  put: () => Promise.reject(new Error('synth: the archiver is not run here')),
};

export function archiveResources(
  archive: ArchiveConfig,
  context: FunctionContext,
): Record<string, TemplateResource> {
  if (archive.tables.length === 0) return {};
  const sink = archive.sink;
  const bucketId = context.ids.allocate('archive', 'Bucket');
  if (sink.type === 'files') {
    context.warn(
      `archive.sink is a directory (${sink.directory}), which Lambda cannot keep; deployed, the archiver writes to the S3 bucket ${bucketId} the template creates`,
    );
  } else if (sink.endpoint !== undefined) {
    context.warn(
      `archive.sink.endpoint (${sink.endpoint}) is a local S3 server; deployed, the archiver writes to the S3 bucket ${bucketId} the template creates`,
    );
  }
  const events: Record<string, SamEvent> = {};
  const statements: PolicyStatement[] = [];
  archive.tables.forEach((tableName, index) => {
    const path = `archive.tables[${index}]`;
    const table = context.tables.get(tableName);
    if (table === undefined) throw new SynthError(path, `no table '${tableName}' in tables`);
    const viewType = streamViewTypeOf(table.config);
    if (viewType !== 'OLD_IMAGE' && viewType !== 'NEW_AND_OLD_IMAGES') {
      throw new SynthError(
        path,
        `table '${tableName}' needs a stream with old images (StreamViewType OLD_IMAGE or NEW_AND_OLD_IMAGES)`,
      );
    }
    // The stream ARN is the template's (Fn::GetAtt below); this one is never used.
    const { mapping } = archiverBinding({
      eventSourceArn: tableName,
      sink: UNUSED_SINK,
      ...(archive.onFailure === undefined ? {} : { onFailureDestination: archive.onFailure }),
    });
    const { FunctionName: _, EventSourceArn: __, ...settings } = mapping;
    const built = streamEvent(tableName, settings, path, context, 'archive.onFailure');
    events[`${pascalCase(tableName)}TtlDeletes`] = built.event;
    statements.push(...built.statements);
  });
  const { definition } = archiverBinding({ eventSourceArn: '', sink: UNUSED_SINK });
  const bucket: TemplateResource = {
    Type: 'AWS::S3::Bucket',
    Metadata: { Eddy: { BuiltIn: 'archive' } },
    // The archive is the only copy of expired items: it outlives the stack.
    DeletionPolicy: 'Retain',
    UpdateReplacePolicy: 'Retain',
  };
  // Read back, the archiver is the archive setting again (its sink as the config had it).
  const localSink =
    sink.type === 'files' ? { ...sink, directory: templatePath(context, sink.directory) } : sink;
  const archiver = samFunction({
    metadata: {
      Eddy: { Name: ARCHIVER_NAME, BuiltIn: ARCHIVER_NAME, Archive: { ...archive, sink: localSink } },
    },
    description: `eddy archiver: TTL deletions of ${archive.tables.join(', ')} to S3`,
    codeUri: context.codeUriOf(ARCHIVER_NAME),
    runtime: context.runtime,
    timeout: definition.timeout ?? 60,
    memorySize: definition.memorySize ?? 128,
    environment: archiveEnvironmentOf({
      bucket: ref(bucketId),
      ...(sink.type === 's3' && sink.prefix ? { prefix: sink.prefix } : {}),
      ...(sink.format ? { format: sink.format } : {}),
      ...(sink.type === 's3' && sink.storageClass ? { storageClass: sink.storageClass } : {}),
    }),
    events,
    // Objects are written, listed (earlier attempts of a batch), read (manifests) and deleted
    // (superseded attempts): SAM's S3CrudPolicy on the archive bucket, nothing else.
    policies: [{ S3CrudPolicy: { BucketName: ref(bucketId) } }, ...policyDocumentOf(statements)],
  });
  return { [bucketId]: bucket, [context.ids.allocate(ARCHIVER_NAME, 'Function')]: archiver };
}
