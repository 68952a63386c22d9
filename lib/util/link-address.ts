/*
 * What a link in rich text may point to. Studio checks an address typed in its link field with
 * it; pure, so the unit tests hold it without a browser.
 */

const SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto', 'tel']);

export type LinkCheck = { href: string } | { problem: string };

/**
 * `typed` as a link's href: http(s), mailto and tel addresses, and paths within the site as
 * given; a bare host (example.com/a) as https. Anything else (javascript:, data:, …) is refused.
 * Browsers drop tabs, newlines and other control characters inside a scheme, so the check reads
 * the scheme without them.
 */
export function checkLinkAddress(typed: string): LinkCheck {
  const href = typed.trim();
  if (href === '') return { problem: 'Enter a link address.' };
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const bare = href.replace(/[\u0000-\u0020\u007f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(bare)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (SCHEMES.has(scheme)) return { href };
    return { problem: `Links to ${scheme}: addresses are not allowed; use http, https, mailto or tel.` };
  }
  if (/^[/#?.]/.test(bare)) return { href };
  return { href: `https://${href}` };
}
