/**
 * Something that keeps the host from doing its job (the data directory's log failed, say): the
 * health check (`GET /_eddy/health`) answers 503 with the reason, and calls failing with `error`
 * are answered InternalServerError without a log line each (the problem was logged once, when it
 * happened).
 */
export interface HostProblem {
  readonly reason: string;
  readonly error?: unknown;
}

/** Asked on every health check and failed call: the problem now, or undefined. */
export type HealthCheck = () => HostProblem | undefined;

/** The problems the checks report now. */
export function problemsOf(checks: readonly HealthCheck[]): HostProblem[] {
  const problems: HostProblem[] = [];
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/** The health body's first fields: `status` `ok` (answered 200), or `failing` (503) and `reason`. */
export function healthStatus(
  problems: readonly HostProblem[],
): { status: 'ok' } | { status: 'failing'; reason: string } {
  if (problems.length === 0) return { status: 'ok' };
  return { status: 'failing', reason: problems.map((problem) => problem.reason).join('; ') };
}
