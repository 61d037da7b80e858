import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Ports } from '../ports.js';

/**
 * Middy middleware: puts the function's ports on `context.ports` before the handler runs.
 *
 * Ports come from the options or, when none are given, from `providePorts()` (the local host
 * provides them once at start-up; a deployed function would provide its own implementations).
 * Unknown options are refused, so a typo fails at wiring time rather than at the first event.
 */
export interface PortsContext extends Context {
  ports: Ports;
}

const KNOWN_OPTIONS = new Set(['ports', 'require']);
let provided: Ports = {};

/**
 * Makes ports available to every function built with `injectPorts()` without explicit ports.
 * Returns a function that restores the previous ports.
 */
export function providePorts(ports: Ports): () => void {
  const previous = provided;
  provided = { ...provided, ...ports };
  return () => {
    provided = previous;
  };
}

export interface InjectPortsOptions {
  /** Ports to inject (default: those given to `providePorts`). */
  ports?: Ports;
  /** Ports that must be present: a missing one fails the invocation with a clear error. */
  require?: (keyof Ports)[];
}

export function injectPorts(
  options: InjectPortsOptions = {},
): MiddlewareObj<unknown, unknown, Error, PortsContext> {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`injectPorts: unknown option "${key}"`);
  }
  const injectPortsBefore: MiddlewareObj<unknown, unknown, Error, PortsContext>['before'] = (request) => {
    const ports = options.ports ?? provided;
    for (const name of options.require ?? []) {
      if (ports[name] === undefined) throw new Error(`injectPorts: no ${name} port was provided`);
    }
    request.context.ports = ports;
  };
  return { before: injectPortsBefore };
}
