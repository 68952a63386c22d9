import type { ExtensionDoc } from '../store/extensions.js';
import { INDEX_PAGE } from './files.js';
import { withQueryParams, type QueryParam } from './query-params.js';

/** An Extension as the legacy API answers it (the spec's Extension fields, plus query_params). */
export interface ExtensionJson {
  id: string;
  title: string;
  image_url: string | null;
  url: string | null;
  zip_url: string | null;
  installed_at: string;
  font_awesome_class: string | null;
  query_params: QueryParam[];
}

/** The page that opens an Extension: its own url, or the root index.html of its kept archive. */
function pageOf(doc: ExtensionDoc, address: string): string | null {
  if (doc.url !== null) return doc.url;
  return doc.archive?.files.some((f) => f.name === INDEX_PAGE) ? `${address}/files/${INDEX_PAGE}` : null;
}

/**
 * `params` are the decoded query parameters; they are appended to the page's url, which is how
 * the extension receives them. `address` is the Extension's own address in the API, under which
 * the service serves a kept archive (`/archive`, the `zip_url` of an upload) and its files.
 */
export function extensionJson(doc: ExtensionDoc, params: QueryParam[], address: string): ExtensionJson {
  const page = pageOf(doc, address);
  return {
    id: doc._id.toHexString(),
    title: doc.title,
    image_url: doc.image_url,
    url: page === null ? null : withQueryParams(page, params),
    zip_url: doc.zip_url ?? (doc.archive ? `${address}/archive` : null),
    installed_at: doc.installed_at.toISOString(),
    font_awesome_class: doc.font_awesome_class,
    query_params: params,
  };
}
