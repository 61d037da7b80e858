/**
 * CSV records as RFC 4180 reads them (https://www.rfc-editor.org/rfc/rfc4180): fields separated
 * by the delimiter, records by CRLF or LF; a field in double quotes may hold delimiters, line
 * breaks and doubled quotes. Each record carries the line it starts on (for error logs).
 */
export function* csvRecords(text: string, delimiter: string): Generator<{ line: number; cells: string[] }> {
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      any = true;
    } else if (c === delimiter) {
      cells.push(cell);
      cell = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      yield { line: recordLine, cells };
      cells = [];
      cell = '';
      any = false;
      line++;
      recordLine = line;
    } else {
      cell += c;
      any = true;
    }
  }
  if (any || cell !== '') {
    cells.push(cell);
    yield { line: recordLine, cells };
  }
}
