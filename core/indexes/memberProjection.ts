import type { EntryProjection } from '../store/indexEntry.js';
import { ImageFields, StoredRow } from './storedImage.js';

/**
 * An INCLUDE or KEYS_ONLY projection cut from stored texts: the projected top-level members,
 * verbatim and in text order (stored texts are canonical, so this is the text encoding the
 * projected item gives: `projection.ts`). Adjacent members are cut as one run. Reuses one row:
 * not reentrant (reads are synchronous).
 */
export class MemberProjection implements EntryProjection {
  private readonly row: StoredRow;

  constructor(names: Iterable<string>) {
    this.row = new StoredRow(new ImageFields(names));
  }

  textOf(itemJson: string): string {
    const text = memberText(this.row.read(itemJson));
    // Flattened: an entry keeps its text, which would otherwise stay a tree of concatenations
    // and slices of the item's text (see `encodeItem`).
    text.charCodeAt(text.length >> 1);
    return text;
  }
}

/** The text of the members a row found, in text order: `{` + runs of adjacent members + `}`. */
function memberText(row: StoredRow): string {
  const { json, order, starts, ends } = row;
  let text = '{';
  let runStart = -1;
  let runEnd = -1;
  for (let i = 0; i < row.count; i++) {
    const field = order[i]!;
    if (runEnd !== -1 && starts[field] === runEnd + 1) {
      runEnd = ends[field]!;
      continue;
    }
    if (runEnd !== -1) text += (text.length > 1 ? ',' : '') + json.slice(runStart, runEnd);
    runStart = starts[field]!;
    runEnd = ends[field]!;
  }
  if (runEnd !== -1) text += (text.length > 1 ? ',' : '') + json.slice(runStart, runEnd);
  return `${text}}`;
}
