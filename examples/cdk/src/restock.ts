import type { ScheduledEvent } from 'aws-lambda';

/** Runs every hour (an EventBridge rule): here it only says so. */
export async function handler(event: ScheduledEvent): Promise<string> {
  console.log(`restock run at ${event.time}`);
  return event.time;
}
