/** Attributes of `h`: strings and numbers become attributes, functions `on…` listeners. */
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;
export type Child = Node | string | number | undefined | null | false | readonly Child[];

/**
 * Builds an element: `h('button', { class: 'primary', onclick: go }, 'Go')`. Text children are
 * text nodes (never parsed as HTML), so item data shows as written.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A table with a header row; `rows` are lists of cells. */
export function table(headers: readonly string[], rows: readonly Child[][], attributes: Attributes = {}) {
  return h(
    'table',
    attributes,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((header) => h('th', {}, header)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((cells) =>
        h(
          'tr',
          {},
          cells.map((cell) => h('td', {}, cell)),
        ),
      ),
    ),
  );
}

/** Pretty JSON in a `<pre>`. */
export function json(value: unknown, attributes: Attributes = {}) {
  return h('pre', { class: 'json', ...attributes }, JSON.stringify(value, null, 2));
}

export function time(epochMs: number | undefined): string {
  return epochMs === undefined ? '' : new Date(epochMs).toISOString().replace('T', ' ').replace('Z', '');
}

/** A message line that says what went wrong. */
export function problem(error: unknown) {
  return h('p', { class: 'problem', role: 'alert' }, error instanceof Error ? error.message : String(error));
}
