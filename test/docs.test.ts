import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the repository's citations honest: code, tests, benchmarks, examples and documents cite
 * behaviour notes as `docs/<file>.md §<section>` (or the AWS page), and every such section must be a
 * numbered heading of that document. Nothing may point at documents outside the repository.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);
const skippedDirectories = new Set(['node_modules', 'dist', 'coverage', '.git', '.eddy']);
const textExtensions = new Set([
  '.ts',
  '.mts',
  '.cts',
  '.js',
  '.mjs',
  '.cjs',
  '.md',
  '.json',
  '.yaml',
  '.yml',
]);

function* repositoryFiles(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirectories.has(entry.name)) yield* repositoryFiles(path);
    } else if (entry.isFile() && entry.name !== 'package-lock.json') {
      // `.ci/run` and similar scripts have no extension.
      if (textExtensions.has(extname(entry.name)) || path.includes(`${sep}.ci${sep}`)) yield path;
    }
  }
}

const files = [...repositoryFiles(root)].filter((path) => path !== self);
const texts = new Map(files.map((path) => [path, readFileSync(path, 'utf8')]));

const NUMBER = String.raw`\d+(?:\.\d+)*`;
// `§2.1, §2.4.1`, `§5.5–5.7`, `§3.1–§3.3`, `§1.2.8 and §1.2.9`, `§3.3.1 / §9.5`; a list may go on
// after a comment's line break (`§1.2.8,` then ` * §5.10`), where each number keeps its `§`.
const SEPARATOR = String.raw`(?:[ \t]*[,–/]|[ \t]+and)`;
const SAME_LINE = String.raw`${SEPARATOR}[ \t]*§?${NUMBER}(?!\d)`;
const NEXT_LINE = String.raw`${SEPARATOR}[ \t]*\n[ \t]*(?:\*|//)[ \t]*§${NUMBER}(?!\d)`;
const LIST = `(?:${SAME_LINE}|${NEXT_LINE})*`;
const citation = new RegExp(String.raw`((?:[\w.-]+/)*[\w.-]+\.md) §(${NUMBER})(${LIST})`, 'g');
const rfc = new RegExp(String.raw`RFC \d+ §${NUMBER}`, 'g');

/** The numbered headings of a Markdown document: `## 2.`, `### 2.4`, `#### 2.4.1`. */
function sectionsOf(path: string): Set<string> {
  const sections = new Set<string>();
  for (const match of (texts.get(path) ?? readFileSync(path, 'utf8')).matchAll(
    /^#{1,6} (\d+(?:\.\d+)*)\.?\s/gm,
  )) {
    sections.add(match[1]!);
  }
  return sections;
}

/** GitHub's anchors of a Markdown document's headings: lower case, punctuation dropped, blanks → `-`. */
function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of (texts.get(path) ?? readFileSync(path, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      match[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

/** `docs/…` is relative to the repository; any other path to the citing file. */
function citedFile(from: string, path: string): string {
  return path.startsWith('docs/') ? join(root, path) : resolve(dirname(from), path);
}

interface Citation {
  readonly where: string;
  readonly file: string;
  readonly section: string;
}

const citations: Citation[] = [];
const bare: string[] = [];
for (const [path, text] of texts) {
  const covered = new Set<number>();
  const lineOf = (index: number) => `${relative(root, path)}:${text.slice(0, index).split('\n').length}`;
  for (const match of text.matchAll(citation)) {
    const numbers = [match[2]!, ...(match[3]!.match(new RegExp(NUMBER, 'g')) ?? [])];
    for (const section of numbers) {
      citations.push({ where: lineOf(match.index), file: citedFile(path, match[1]!), section });
    }
    for (let i = match.index; i < match.index + match[0].length; i++) covered.add(i);
  }
  for (const match of text.matchAll(rfc)) {
    for (let i = match.index; i < match.index + match[0].length; i++) covered.add(i);
  }
  const inDocs = relative(root, path).startsWith(`docs${sep}`);
  for (const match of text.matchAll(new RegExp(`§(${NUMBER})`, 'g'))) {
    if (covered.has(match.index)) continue;
    // Inside a behaviour document a bare `§N` is one of its own sections.
    if (inDocs && path.endsWith('.md'))
      citations.push({ where: lineOf(match.index), file: path, section: match[1]! });
    else bare.push(`${lineOf(match.index)}: ${match[0]}`);
  }
}

describe('citations of docs/', () => {
  it('finds the citations it checks', () => {
    expect(citations.filter((c) => c.file.endsWith('dynamodb.md')).length).toBeGreaterThan(100);
    expect(citations.filter((c) => c.file.endsWith('streams-and-lambda.md')).length).toBeGreaterThan(100);
  });

  it('cites only documents that exist', () => {
    const missing = citations
      .filter((c) => !existsSync(c.file))
      .map((c) => `${c.where} → ${relative(root, c.file)}`);
    expect(missing).toEqual([]);
  });

  it('cites only sections that are headings of the cited document', () => {
    const sections = new Map<string, Set<string>>();
    const dangling = citations
      .filter((c) => existsSync(c.file))
      .filter((c) => {
        if (!sections.has(c.file)) sections.set(c.file, sectionsOf(c.file));
        return !sections.get(c.file)!.has(c.section);
      })
      .map((c) => `${c.where} → ${relative(root, c.file)} §${c.section}`);
    expect(dangling).toEqual([]);
  });

  it('names the document of every § outside docs/', () => {
    expect(bare).toEqual([]);
  });

  it('links Markdown documents to files and headings that exist', () => {
    const broken: string[] = [];
    for (const [path, text] of texts) {
      if (!path.endsWith('.md')) continue;
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [target = '', anchor] = match[1]!.split('#');
        if (/^[a-z]+:/.test(target)) continue;
        const file = target === '' ? path : resolve(dirname(path), target);
        const where = `${relative(root, path)}: ${match[1]}`;
        if (!existsSync(file)) broken.push(where);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor))
          broken.push(where);
      }
    }
    expect(broken).toEqual([]);
  });

  it('never points at documents outside the repository', () => {
    // The design notes, the old behaviour specs and the seed documents lived outside the repository.
    const outside =
      /spec\s+§|\.\.\/shared\/(?:DESIGN|spec|seeds)|shared\/(?:spec|seeds)\/|DESIGN(?:\.md| §)|dynamodb-api\.md|streams-lambda-ttl\.md|seed [\w-]+\.txt/;
    const offending = [...texts]
      .flatMap(([path, text]) => text.split('\n').map((line, i) => ({ path, line, number: i + 1 })))
      .filter(({ line }) => outside.test(line))
      .map(({ path, line, number }) => `${relative(root, path)}:${number}: ${line.trim()}`);
    expect(offending).toEqual([]);
  });
});
