/** The live feed (`GET /_eddy/api/live`, server-sent events), shared by every view. */
type Listener = (data: unknown) => void;

const listeners = new Map<string, Set<Listener>>();
let source: EventSource | undefined;

function connect(): EventSource {
  if (source !== undefined) return source;
  source = new EventSource('/_eddy/api/live');
  for (const name of ['records', 'invocations', 'tick', 'problem']) {
    source.addEventListener(name, (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as unknown;
      for (const listener of listeners.get(name) ?? []) listener(data);
    });
  }
  source.addEventListener('open', () => document.body.setAttribute('data-live', 'open'));
  source.addEventListener('error', () => document.body.setAttribute('data-live', 'reconnecting'));
  return source;
}

/** Listens to one kind of event; answers the function that stops listening. */
export function on(event: string, listener: Listener): () => void {
  connect();
  let set = listeners.get(event);
  if (set === undefined) {
    set = new Set();
    listeners.set(event, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}
