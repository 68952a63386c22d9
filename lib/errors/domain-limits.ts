import { DomainError } from './domain-errors.js';

/**
 * Limits a read runs into while it is being answered: the request is valid, but it asks for more
 * than one response may carry. The services and the relationship pipeline throw these without
 * knowing HTTP; the error translator answers them with 413 `response_too_large`.
 */
export class ReadLimitError extends DomainError {}

/** Advice for any list or read that is too large. */
export const NARROWING_ADVICE = 'lower limit, narrow props, or paginate with skip or after';
/** Added when relationship expansion (depth) is what makes a read large. */
export const DEPTH_ADVICE = `${NARROWING_ADVICE}; a lower depth expands fewer related Objects`;

const MIB = 1024 * 1024;

/** "6" for an exact number of MB, "6.2" otherwise. */
export function megabytes(bytes: number): string {
  return bytes % MIB === 0 ? String(bytes / MIB) : (bytes / MIB).toFixed(1);
}

/** The relationships of a read reach more distinct related Objects than one response may load. */
export class RelatedObjectsCapError extends ReadLimitError {
  constructor(readonly cap: number) {
    super(
      `This read would load more than ${cap} related Objects, the limit for one response: ` +
        'lower depth or limit, or narrow props so fewer relationships are expanded',
    );
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
    advice: string = NARROWING_ADVICE,
  ) {
    super(`The response would be over the ${megabytes(capBytes)} MB limit (${measure}): ${advice}`);
  }
}
