/**
 * The whole second a time falls in (epoch ms / 1000, floored), for what counts per second: the
 * metrics' last whole second (docs/capacity.md §7), a resource's peak and the on-demand partition
 * sizing (docs/capacity.md §2.2). `left` runs on every request and tells another second by two
 * comparisons; the division runs in `enter`, once per second (docs/capacity.md §9: enforcement
 * costs ≤ 10 %).
 */
export class Second {
  /** The second's number; NaN before the first `enter`. */
  index = Number.NaN;
  /** Where the second starts and ends (epoch ms). */
  private from = Number.POSITIVE_INFINITY;
  private until = Number.NEGATIVE_INFINITY;

  /** Whether `now` falls in another second (later, or earlier when the clock was set back). */
  left(now: number): boolean {
    return now < this.from || now >= this.until;
  }

  /** Moves to the second `now` falls in; false when it is this one already. */
  enter(now: number): boolean {
    const index = Math.floor(now / 1000);
    if (index === this.index) return false;
    this.index = index;
    this.from = index * 1000;
    this.until = this.from + 1000;
    return true;
  }
}
