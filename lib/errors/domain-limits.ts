import { DomainError } from './domain-errors.js';

/**
 * Limits a read runs into while it is being answered: the request is valid, but it asks for more
 * than one response may carry. The services and the relationship pipeline throw these without
 * knowing HTTP or the route; the HTTP layer adds advice the route can act on (readLimitAdvice)
 * and answers 413 `response_too_large`.
 */
export class ReadLimitError extends DomainError {
  /** What was crossed, without advice. */
  readonly problem: string;

  constructor(problem: string) {
    super(problem);
    this.problem = problem;
  }
}

const MIB = 1024 * 1024;

/** "6" for an exact number of MB, "6.2" otherwise. */
export function megabytes(bytes: number): string {
  return bytes % MIB === 0 ? String(bytes / MIB) : (bytes / MIB).toFixed(1);
}

/** The relationships of a read reach more distinct related Objects than one response may load. */
export class RelatedObjectsCapError extends ReadLimitError {
  constructor(readonly cap: number) {
    super(`This read would load more than ${cap} related Objects, the limit for one response`);
  }
}

/**
 * The response is over the byte cap. `measure` says what crossed it (the JSON size, the stored
 * bytes read so far, or a lower bound), as reads stop as soon as the cap is crossed.
 */
export class ResponseTooLargeError extends ReadLimitError {
  constructor(
    readonly capBytes: number,
    measure: string,
  ) {
    super(`The response would be over the ${megabytes(capBytes)} MB limit (${measure})`);
  }
}

/**
 * What a client can change to make a read smaller, naming only parameters the route takes, so a
 * 413 never advises `after` where the route refuses it, or `limit` on a single item. `expanding`:
 * the read resolved relationships (depth above 0), which is then the first thing to lower.
 */
export function readLimitAdvice(routeParams: ReadonlySet<string>, expanding: boolean): string {
  const remedies: string[] = [];
  if (expanding && routeParams.has('depth')) remedies.push('lower depth');
  if (routeParams.has('limit')) remedies.push('lower limit');
  if (routeParams.has('props')) remedies.push('narrow props');
  const paging = ['skip', 'after'].filter((p) => routeParams.has(p));
  if (paging.length > 0) remedies.push(`paginate with ${paging.join(' or ')}`);
  const last = remedies.pop();
  if (last === undefined) return 'this route cannot return less of it';
  if (remedies.length === 0) return last;
  return remedies.length === 1 ? `${remedies[0]} or ${last}` : `${remedies.join(', ')}, or ${last}`;
}
