/* The answered shapes of metadata values, apart from the renderer, which walks the kinds that use them. */

/**
 * Rendered metadata, by Metafield key. Each value's shape follows its Metafield (see
 * renderMetadata), so no single type describes the values.
 */
export type ApiMetadata = Record<string, unknown>;

/** A select-dropdown value as answered. */
export type ApiSelectValue = { key: string; value: string };

/** A file value as answered: the addresses of the media item. */
export type ApiFileUrls = { url: string; imgproc_url: string };

export interface MetadataRenderContext {
  /** URLs of the media item with this name in the Bucket, or null when there is none. */
  fileUrls(name: string): ApiFileUrls | null;
  /** Renders a related Object that populate has put in place of its id. */
  renderRelated(doc: unknown): unknown;
}
