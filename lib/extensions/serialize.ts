import type { ExtensionDoc } from './collection.js';
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

/**
 * `params` are the decoded query parameters; they are appended to `url`, which is how the
 * extension receives them. `archiveUrl` is where the service serves back an uploaded archive:
 * the `zip_url` of an extension installed from an upload.
 */
export function extensionJson(doc: ExtensionDoc, params: QueryParam[], archiveUrl: string): ExtensionJson {
  return {
    id: doc._id.toHexString(),
    title: doc.title,
    image_url: doc.image_url,
    url: doc.url === null ? null : withQueryParams(doc.url, params),
    zip_url: doc.zip_url ?? (doc.archive ? archiveUrl : null),
    installed_at: doc.installed_at.toISOString(),
    font_awesome_class: doc.font_awesome_class,
    query_params: params,
  };
}
