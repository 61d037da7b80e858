import { createRequire } from 'node:module';
import type * as KinesisSdk from '@aws-sdk/client-kinesis';
import type { KinesisClient } from '@aws-sdk/client-kinesis';

// `@aws-sdk/client-kinesis` is loaded when the first Kinesis client is made: only a stack with a
// Kinesis endpoint needs it, and `eddy serve` does not pay for loading it (as the S3 client,
// infra/archive/s3Store.ts). The SDK's packages are CommonJS in Node, so `require` gives the
// module an `import` would.
const require = createRequire(import.meta.url);
let loaded: typeof KinesisSdk | undefined;
const kinesis = () => (loaded ??= require('@aws-sdk/client-kinesis') as typeof KinesisSdk);

/** Where eddy writes the changes of tables with a Kinesis destination (docs/kinesis-destinations.md §3). */
export interface KinesisEndpointOptions {
  /** Endpoint URL of a Kinesis-compatible server (e.g. `http://127.0.0.1:4567`); default: AWS. */
  readonly endpoint?: string;
  /** Region the client signs for (default: the table's region). */
  readonly region?: string;
  /** Default: the SDK's credential chain. `eddy serve` reads EDDY_ARCHIVE_ACCESS_KEY_ID/... as the archive does. */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** A client to use instead of building one from the options above. */
  readonly client?: KinesisClient;
}

/** One record of a PutRecords call: the JSON text and the partition key. */
export interface OutgoingRecord {
  readonly data: Uint8Array;
  readonly partitionKey: string;
}

/** The per-record outcome of PutRecords: undefined when written, else the error code and message. */
export type RecordOutcome = { readonly errorCode: string; readonly errorMessage: string } | undefined;

/**
 * The two Kinesis calls eddy makes, over `@aws-sdk/client-kinesis` with an HTTP/1.1 handler: the
 * client's default HTTP/2 handler is for SubscribeToShard, and Kinesis-compatible servers
 * (kinesalite) speak HTTP/1.1 only. Streams are named by StreamName (from the ARN), which every
 * server understands; StreamARN parameters are newer than kinesalite.
 */
export class KinesisWriter {
  private client: KinesisClient | undefined;
  /**
   * Aborts the calls in flight at `close`: the SDK's own attempts of a call (maxAttempts below)
   * would otherwise go on after the stack closed and write, once Kinesis answers again, records
   * the next run writes too (test/kinesis/unsentRestart.test.ts).
   */
  private inFlight = new AbortController();

  constructor(
    private readonly options: KinesisEndpointOptions,
    private readonly defaultRegion: string,
  ) {}

  /** Where records go, for messages. */
  get location(): string {
    return this.options.endpoint ?? `Kinesis in ${this.options.region ?? this.defaultRegion}`;
  }

  private kinesisClient(): KinesisClient {
    if (this.client !== undefined) return this.client;
    if (this.options.client !== undefined) return (this.client = this.options.client);
    const sdk = kinesis();
    // The HTTP/1.1 handler of the Kinesis client's own dependency tree.
    const fromSdk = createRequire(require.resolve('@aws-sdk/client-kinesis'));
    const { NodeHttpHandler } = fromSdk('@smithy/node-http-handler') as {
      NodeHttpHandler: new () => unknown;
    };
    this.client = new sdk.KinesisClient({
      region: this.options.region ?? this.defaultRegion,
      ...(this.options.endpoint ? { endpoint: this.options.endpoint } : {}),
      ...(this.options.credentials ? { credentials: this.options.credentials } : {}),
      requestHandler: new NodeHttpHandler() as never,
      // A call that fails in transit (a kept-alive socket the server closed) is tried again at
      // once by the SDK; lasting failures are retried by the publisher on the engine's clock.
      maxAttempts: 3,
    });
    return this.client;
  }

  /** The stream's status (`ACTIVE`, `CREATING`...), or undefined when there is no such stream. */
  async streamStatus(streamName: string): Promise<string | undefined> {
    try {
      const output = await this.kinesisClient().send(
        new (kinesis().DescribeStreamSummaryCommand)({ StreamName: streamName }),
        { abortSignal: this.inFlight.signal },
      );
      return output.StreamDescriptionSummary?.StreamStatus ?? 'ACTIVE';
    } catch (error) {
      if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  }

  /** PutRecords: one outcome per record, in order. Rejects when the call itself failed. */
  async putRecords(streamName: string, records: readonly OutgoingRecord[]): Promise<RecordOutcome[]> {
    const output = await this.kinesisClient().send(
      new (kinesis().PutRecordsCommand)({
        StreamName: streamName,
        Records: records.map((record) => ({ Data: record.data, PartitionKey: record.partitionKey })),
      }),
      { abortSignal: this.inFlight.signal },
    );
    const results = output.Records ?? [];
    return records.map((_, index) => {
      const result = results[index];
      if (result === undefined)
        return { errorCode: 'MissingResult', errorMessage: 'no result for the record' };
      if (result.ErrorCode === undefined) return undefined;
      return { errorCode: result.ErrorCode, errorMessage: result.ErrorMessage ?? '' };
    });
  }

  close(): void {
    this.inFlight.abort();
    this.inFlight = new AbortController();
    if (this.options.client === undefined) this.client?.destroy();
    this.client = undefined;
  }
}
