/**
 * A token bucket in capacity units: it fills at `rate` units per second up to `capacity` and a
 * request takes what it consumed. DynamoDB admits a request while the bucket holds capacity and
 * charges what the request actually read or wrote afterwards (a 400 KB write on a 1-WCU table
 * succeeds and leaves a debt), so the balance may go below zero and admission asks only for a
 * positive balance. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html
 */
export class TokenBucket {
  private balance: number;
  private filledAt: number;

  constructor(
    private rate: number,
    private capacity: number,
    now: number,
    /** Where the balance starts (default: full, a table that has been idle). */
    initial = capacity,
  ) {
    this.balance = initial;
    this.filledAt = now;
  }

  /** Changes the fill rate and the ceiling (UpdateTable); what the bucket holds stays, up to the new ceiling. */
  resize(rate: number, capacity: number, now: number): void {
    if (rate === this.rate && capacity === this.capacity) return;
    this.fill(now);
    this.rate = rate;
    this.capacity = capacity;
    this.balance = Math.min(this.balance, capacity);
  }

  /** Units available now (may be negative after an oversized request). */
  available(now: number): number {
    this.fill(now);
    return this.balance;
  }

  /** Whether a request may start now. */
  admits(now: number): boolean {
    return this.available(now) > 0;
  }

  take(units: number, now: number): void {
    this.fill(now);
    this.balance -= units;
  }

  /** Takes `units` without filling: right after `available(now)` filled the bucket to now. */
  debit(units: number): void {
    this.balance -= units;
  }

  private fill(now: number): void {
    const elapsed = now - this.filledAt;
    if (elapsed <= 0) return;
    this.filledAt = now;
    this.balance = Math.min(this.capacity, this.balance + (elapsed / 1000) * this.rate);
  }
}
