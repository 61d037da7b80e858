import { createHmac, randomBytes } from 'node:crypto';
import { ValidationException } from '../../core/errors/index.js';
import type { ChangeLog } from '../changeLog.js';
import { StreamsMessages } from './shapes.js';

/** What a shard iterator remembers: a position in one shard, and when it was handed out. */
export interface IteratorState {
  readonly streamArn: string;
  readonly shardId: string;
  /** Records with this ordinal or above come next. */
  readonly ordinal: number;
  /**
   * Epoch ms (engine clock) when the iterator was returned: it expires 15 minutes later
   * (docs/streams-and-lambda.md §1.5.3).
   */
  readonly issuedAt: number;
  /**
   * The chain of iterators this one belongs to: GetShardIterator starts a chain, each
   * NextShardIterator continues it. A chain is one reader of its shard (docs/capacity.md §5.1).
   */
  readonly chain: string;
}

/** A new chain's id: random, so chains stay apart across restarts that keep the secret. */
export function newChain(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * Shard iterators as opaque strings, `<StreamArn>|1|<position>.<mac>` like the service's
 * (`arn...|1|AAAA...`). The MAC (HMAC-SHA-256 with a per-change-log secret) makes a malformed or
 * edited iterator a ValidationException (docs/streams-and-lambda.md §1.5.9) instead of a read
 * from a forged position. Iterators hold no state on the server: nothing to clean up when they
 * expire, and with a secret kept in a data directory they outlive a restart, as the service's
 * do (an iterator is valid for 15 minutes, whatever happens to the process).
 */
export class IteratorCodec {
  /** `secret`: 32 random bytes by default (iterators then die with the process). */
  constructor(private readonly secret: Uint8Array = randomBytes(32)) {}

  encode(state: IteratorState): string {
    const position = Buffer.from(
      `${state.shardId}|${state.ordinal}|${state.issuedAt}|${state.chain}`,
    ).toString('base64url');
    return `${state.streamArn}|1|${position}.${this.mac(state.streamArn, position)}`;
  }

  /** @throws ValidationException for anything this codec did not produce. */
  decode(iterator: string): IteratorState {
    const parts = iterator.split('|');
    if (parts.length !== 3 || parts[1] !== '1') throw invalid();
    const [streamArn, , body] = parts as [string, string, string];
    const dot = body.indexOf('.');
    if (dot < 0) throw invalid();
    const position = body.slice(0, dot);
    if (body.slice(dot + 1) !== this.mac(streamArn, position)) throw invalid();
    const fields = Buffer.from(position, 'base64url').toString('utf8').split('|');
    const ordinal = Number(fields[1]);
    const issuedAt = Number(fields[2]);
    if (
      fields.length < 3 ||
      fields.length > 4 ||
      !Number.isSafeInteger(ordinal) ||
      !Number.isFinite(issuedAt)
    )
      throw invalid();
    // An iterator handed out before chains existed (kept across a restart) is a chain of its own.
    const chain = fields[3] ?? `${fields[0]}|${fields[2]}`;
    return { streamArn, shardId: fields[0]!, ordinal, issuedAt, chain };
  }

  private mac(streamArn: string, position: string): string {
    return createHmac('sha256', this.secret)
      .update(`${streamArn}|${position}`)
      .digest('base64url')
      .slice(0, 22);
  }
}

function invalid(): ValidationException {
  return new ValidationException(StreamsMessages.invalidIterator);
}

const codecs = new WeakMap<ChangeLog, IteratorCodec>();

/**
 * Signs a change log's iterators with `secret` from now on (a data directory's, so iterators
 * handed out before a restart stay valid): call it before the first iterator is handed out.
 */
export function useIteratorSecret(changeLog: ChangeLog, secret: Uint8Array): void {
  codecs.set(changeLog, new IteratorCodec(secret));
}

/** The codec of a change log: iterators from any service over the same log are interchangeable. */
export function iteratorCodecOf(changeLog: ChangeLog): IteratorCodec {
  let codec = codecs.get(changeLog);
  if (codec === undefined) {
    codec = new IteratorCodec();
    codecs.set(changeLog, codec);
  }
  return codec;
}
