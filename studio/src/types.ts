// The shapes of the v3 API that Studio reads and writes (see schemas/ at the project root).

export const KINDS = [
  'text',
  'textarea',
  'html-textarea',
  'markdown',
  'select-dropdown',
  'radio-buttons',
  'check-boxes',
  'switch',
  'number',
  'date',
  'json',
  'file',
  'object',
  'objects',
  'parent',
  'repeater',
] as const;
export type Kind = (typeof KINDS)[number];

export interface Option {
  key?: string;
  value: string;
}

export interface Metafield {
  id?: string;
  type: Kind;
  title: string;
  key: string;
  value?: unknown;
  required?: boolean;
  regex?: string;
  regex_message?: string;
  minlength?: number;
  maxlength?: number;
  options?: Option[] | string;
  children?: Metafield[];
  object_type?: string;
  repeater_fields?: Metafield[];
  media_validation_type?: 'image' | 'video' | 'audio' | 'application' | 'text';
  sortable?: boolean;
  helptext?: string;
}

export interface ObjectType {
  id?: string;
  title: string;
  slug: string;
  singular?: string;
  emoji?: string;
  singleton?: boolean;
  metafields: Metafield[];
  options?: { slug_field?: boolean | number; content_editor?: boolean | number };
  localization?: boolean;
  locales?: string[];
  priority_locale?: string | null;
  preview_link?: string;
}

export interface ContentObject {
  id: string;
  title: string;
  slug: string;
  type: string;
  status: 'published' | 'draft';
  content?: string;
  locale?: string | null;
  metadata?: Record<string, unknown>;
  created_at?: string;
  modified_at?: string;
  /** What If-Match names to save over exactly this version. */
  version?: string;
  published_at?: string | null;
  publish_at?: number | null;
  thumbnail?: string | null;
  /** Reads with status any/draft: the live version's modified_at, null when nothing is live. */
  published_modified_at?: string | null;
}

export interface Revision {
  id: string;
  title: string;
  content?: string;
  metadata?: Record<string, unknown>;
  status?: string;
  reason?: string;
  created_at: string;
  /** The account that made this version (its id); null for a Bucket key's writes. */
  created_by?: string | null;
}

export interface Media {
  id: string;
  name: string;
  original_name: string;
  url: string;
  imgproc_url: string;
  type: string;
  size: number;
  alt_text?: string;
  folder?: string | null;
  created_at?: string;
  modified_at?: string;
}

export type Role = 'admin' | 'developer' | 'editor' | 'contributor';
