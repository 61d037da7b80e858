/**
 * Injected faults (docs/capacity.md §6): the next `n` requests on a table are throttled, or fail
 * with InternalServerError, whether or not capacity is enforced, so retry code can be tested
 * deterministically. A batch or transaction counts one request per item of that table.
 */
export type FaultKind = 'throttle' | 'InternalServerError';

export class FaultInjector {
  private readonly waiting = new Map<string, { kind: FaultKind; remaining: number }[]>();

  /** Whether any fault is still waiting. */
  get pending(): boolean {
    return this.waiting.size > 0;
  }

  add(tableName: string, kind: FaultKind, times: number): void {
    if (!Number.isInteger(times) || times < 1)
      throw new RangeError(`times must be a positive integer: ${times}`);
    const queue = this.waiting.get(tableName) ?? [];
    queue.push({ kind, remaining: times });
    this.waiting.set(tableName, queue);
  }

  /** The fault the next request on `tableName` meets, if any (consumed). */
  take(tableName: string): FaultKind | undefined {
    const queue = this.waiting.get(tableName);
    const head = queue?.[0];
    if (queue === undefined || head === undefined) return undefined;
    head.remaining--;
    if (head.remaining === 0) queue.shift();
    if (queue.length === 0) this.waiting.delete(tableName);
    return head.kind;
  }

  clear(): void {
    this.waiting.clear();
  }
}
