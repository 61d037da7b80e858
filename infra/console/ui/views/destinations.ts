import { get, post } from '../api.js';
import { fill, h, json, problem, table } from '../dom.js';
import { keyText } from '../format.js';
import { on } from '../live.js';

interface FailedBatch {
  mappingUuid: string;
  functionName: string;
  destination: string;
  record: {
    requestContext: { requestId: string; condition: string; approximateInvokeCount: number };
    timestamp: string;
    DDBStreamBatchInfo: {
      shardId: string;
      startSequenceNumber: string;
      endSequenceNumber: string;
      batchSize: number;
    };
  };
}

/**
 * `#/destinations`: failed batches as each on-failure destination received them, their records
 * (read again from the stream) and a replay through the function.
 */
export function renderDestinations(element: HTMLElement): () => void {
  const body = h('div', {});
  const detail = h('div', { 'data-testid': 'batch-detail' });
  fill(element, h('h2', {}, 'On-failure destinations'), body, detail);
  let shown = -1;
  const load = async () => {
    try {
      const { FailedBatches } = await get<{ FailedBatches: FailedBatch[] }>('failed-batches');
      if (FailedBatches.length === shown) return;
      shown = FailedBatches.length;
      fill(
        body,
        FailedBatches.length === 0
          ? h('p', {}, 'No failed batches.')
          : table(
              ['When', 'Function', 'Destination', 'Condition', 'Attempts', 'Records', ''],
              FailedBatches.map((batch, index) => [
                batch.record.timestamp,
                h('a', { href: `#/mappings/${batch.mappingUuid}` }, batch.functionName),
                batch.destination.slice(batch.destination.lastIndexOf(':') + 1),
                batch.record.requestContext.condition,
                String(batch.record.requestContext.approximateInvokeCount),
                `${batch.record.DDBStreamBatchInfo.batchSize} (${batch.record.DDBStreamBatchInfo.startSequenceNumber} … ${batch.record.DDBStreamBatchInfo.endSequenceNumber})`,
                h(
                  'span',
                  { class: 'actions' },
                  h('button', { type: 'button', onclick: () => void records(index, batch) }, 'Records'),
                  h('button', { type: 'button', onclick: () => void replay(index) }, 'Replay'),
                ),
              ]),
              { 'data-testid': 'failed-batches' },
            ),
      );
    } catch (error) {
      fill(body, problem(error));
    }
  };
  const records = async (index: number, batch: FailedBatch) => {
    try {
      const answer = await get<{
        Records: { eventName: string; dynamodb: { Keys: Record<string, unknown> } }[] | null;
      }>(`failed-batches/${index}/records`);
      fill(
        detail,
        h('h3', {}, `Records of the batch (${batch.record.DDBStreamBatchInfo.shardId})`),
        answer.Records === null
          ? h('p', {}, 'These records are no longer in the stream (trimmed after 24 hours).')
          : h(
              'ul',
              {},
              answer.Records.map((record) =>
                h('li', {}, `${record.eventName} ${keyText(record.dynamodb.Keys)}`),
              ),
            ),
        h('h3', {}, 'As the destination received it'),
        json(batch.record),
      );
    } catch (error) {
      fill(detail, problem(error));
    }
  };
  const replay = async (index: number) => {
    try {
      fill(
        detail,
        h('h3', {}, 'Replayed through the function'),
        json(await post(`failed-batches/${index}/replay`, {})),
      );
    } catch (error) {
      fill(detail, problem(error));
    }
  };
  void load();
  return on('tick', () => void load());
}
