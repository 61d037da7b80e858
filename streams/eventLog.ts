import type { ChangeEvent } from '../core/changeEvent.js';

/**
 * An append-only run of change events addressed by absolute position (0, 1, 2...), whose head
 * can be trimmed. Positions never shift: a reader's cursor stays valid across trimming and
 * compaction, and a cursor below `head` means the records it wanted are gone.
 *
 * Appending is a single array push: events are kept by reference (their `StoredItem` texts are
 * shared with the table, never copied) and records are built only when read.
 */
export class EventLog {
  private events: (ChangeEvent | undefined)[] = [];
  /** Absolute position of `events[0]`. */
  private offset = 0;
  /** Index in `events` of the first retained event. */
  private first = 0;

  /** Position of the oldest retained event. */
  get head(): number {
    return this.offset + this.first;
  }

  /** Position the next appended event gets. */
  get end(): number {
    return this.offset + this.events.length;
  }

  get size(): number {
    return this.events.length - this.first;
  }

  /** A log whose retained events start at position `head` (persistence restores logs so). */
  static restore(head: number, events: ChangeEvent[]): EventLog {
    const log = new EventLog();
    log.offset = head;
    log.events = events;
    return log;
  }

  /** Appends an event; returns its position. */
  append(event: ChangeEvent): number {
    this.events.push(event);
    return this.offset + this.events.length - 1;
  }

  /** The event at `position` (head ≤ position < end). */
  at(position: number): ChangeEvent {
    return this.events[position - this.offset]!;
  }

  /** Commit time of the oldest retained event, or undefined when empty. */
  get oldestAt(): number | undefined {
    return this.size === 0 ? undefined : this.events[this.first]!.at;
  }

  /** Drops every event before `position`. */
  trimTo(position: number): void {
    const target = Math.min(position, this.end) - this.offset;
    if (target <= this.first) return;
    // Release the events at once: they hold item texts.
    for (let index = this.first; index < target; index++) this.events[index] = undefined;
    this.first = target;
    // Compact when the dead prefix dominates: amortised O(1) per event.
    if (this.first >= 1024 && this.first * 2 >= this.events.length) {
      this.events = this.events.slice(this.first);
      this.offset += this.first;
      this.first = 0;
    }
  }

  /**
   * Position of the first retained event committed at or after `time` (epoch ms), or `end`.
   * Commit times never decrease along the log, so this is a binary search.
   */
  firstAtOrAfter(time: number): number {
    let low = this.first;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.events[middle]!.at < time) low = middle + 1;
      else high = middle;
    }
    return this.offset + low;
  }
}
