/** The answer headers that decide whether a page may be shown in a frame. */
export interface FramingHeaders {
  xFrameOptions: string | undefined;
  /** Every enforced Content-Security-Policy (report-only policies enforce nothing). */
  contentSecurityPolicy: string | undefined;
}

/** Sources of `frame-ancestors` that let any https page frame this one: the dashboard can be anywhere. */
const FRAMEABLE_FROM_ANYWHERE = new Set(['*', 'https:']);

function frameAncestorsRefusal(policy: string): string | null {
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name?.toLowerCase() !== 'frame-ancestors') continue;
    // The first frame-ancestors of a policy is the one browsers apply.
    if (sources.some((s) => FRAMEABLE_FROM_ANYWHERE.has(s.toLowerCase()))) return null;
    const listed = sources.length === 0 ? "'none'" : sources.join(' ');
    return `its Content-Security-Policy has frame-ancestors ${listed}, so it may not be framed from anywhere`;
  }
  return null;
}

/**
 * Why a browser would refuse to show the page in the dashboard's frame, or null when it would
 * show it: X-Frame-Options of any value that names who may frame (DENY, SAMEORIGIN, ALLOW-FROM),
 * or a frame-ancestors directive without `*` (or `https:`) in any enforced policy.
 */
export function framingRefusal(headers: FramingHeaders): string | null {
  const xfo = headers.xFrameOptions?.trim();
  if (xfo !== undefined && xfo !== '') {
    const values = xfo.split(',').map((v) => v.trim().toUpperCase());
    const blocking = values.find((v) => v === 'DENY' || v === 'SAMEORIGIN' || v.startsWith('ALLOW-FROM'));
    if (blocking !== undefined) return `it answers X-Frame-Options: ${blocking}`;
  }
  // Node joins repeated headers with ", "; every policy applies, and one refusal is enough.
  for (const policy of (headers.contentSecurityPolicy ?? '').split(',')) {
    const why = frameAncestorsRefusal(policy);
    if (why !== null) return why;
  }
  return null;
}
