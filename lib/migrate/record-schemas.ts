import type { ValidateFunction } from 'ajv';
import { MigrationError } from '../errors/domain-errors.js';
import { newAjv } from '../validation/ajv.js';
import { describeAjvErrors } from '../validation/ajv-messages.js';
import { BUNDLE_FORMAT, SECTIONS, type Manifest, type MediaRecord, type ObjectRecord } from './bundle-format.js';
import type { RevisionRecord, VersionRecord, WebhookRecord } from './bundle-format.js';

/*
 * The shapes of bundle records, checked before anything reads them. What the API checks in its
 * own terms (an Object type's body, an Object's fields and metadata, a webhook's settings) is
 * checked again by the API's own validation when the record is written; these only make the
 * records safe to read and name what is wrong with them.
 */

const text = (max: number) => ({ type: 'string', maxLength: max });
const time = { type: 'string', format: 'date-time' };
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const id = { type: 'string', minLength: 1, maxLength: 200 };

const VERSION = {
  type: 'object',
  required: ['title'],
  properties: {
    title: text(1000),
    slug: text(200),
    status: { enum: ['published', 'draft'] },
    content: { type: 'string' },
    locale: nullable({ type: 'string' }),
    thumbnail: nullable({ type: 'string' }),
    order: { type: 'number' },
    metadata: { type: 'object' },
    modified_at: time,
    published_at: nullable(time),
    modified_by: nullable({ type: 'string' }),
  },
  additionalProperties: false,
};

const SCHEMAS = {
  manifest: {
    type: 'object',
    required: ['format', 'version', 'bundle_id', 'created_at', 'source', 'revisions', 'counts'],
    properties: {
      format: { const: BUNDLE_FORMAT },
      version: { type: 'integer' },
      bundle_id: id,
      created_at: time,
      source: {
        type: 'object',
        required: ['kind', 'id'],
        properties: {
          kind: { enum: ['export', 'pull', 'block'] },
          id: { type: 'string', minLength: 1, maxLength: 2000 },
          bucket: text(200),
          url: text(2000),
        },
        additionalProperties: false,
      },
      block: {
        type: 'object',
        required: ['slug', 'title'],
        properties: {
          slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 },
          title: { type: 'string', minLength: 1, maxLength: 200 },
          description: text(2000),
        },
        additionalProperties: false,
      },
      revisions: { type: 'boolean' },
      counts: {
        type: 'object',
        required: [...SECTIONS, 'media_bytes'],
        properties: Object.fromEntries([...SECTIONS, 'media_bytes'].map((s) => [s, { type: 'integer', minimum: 0 }])),
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  type: {
    type: 'object',
    required: ['slug', 'title'],
    properties: { slug: { type: 'string', minLength: 1 }, title: { type: 'string' } },
  },
  media: {
    type: 'object',
    required: ['name', 'original_name', 'type', 'size'],
    properties: {
      id,
      name: { type: 'string', minLength: 1, maxLength: 300 },
      original_name: text(1000),
      type: text(200),
      size: { type: 'integer', minimum: 0 },
      folder: nullable({ type: 'string' }),
      alt_text: { type: 'string' },
      metadata: { type: 'object' },
      width: nullable({ type: 'integer' }),
      height: nullable({ type: 'integer' }),
      created_at: time,
      modified_at: time,
    },
    additionalProperties: false,
  },
  object: {
    type: 'object',
    required: ['id', 'type', 'latest'],
    properties: {
      id,
      type: { type: 'string', minLength: 1 },
      created_at: time,
      created_by: nullable({ type: 'string' }),
      publish_at: nullable(time),
      unpublish_at: nullable(time),
      latest: VERSION,
      live: nullable(VERSION),
      // Each is checked as a legacy body's own Metafield is, when its versions are.
      metafields: { type: 'array', items: { type: 'object' } },
    },
    additionalProperties: false,
  },
  revision: {
    type: 'object',
    required: ['id', 'object', 'created_at', 'reason', 'status', 'title'],
    properties: {
      id,
      object: id,
      created_at: time,
      reason: { enum: ['create', 'edit', 'draft', 'publish', 'scheduled-publish', 'scheduled-unpublish'] },
      status: { enum: ['published', 'draft'] },
      title: text(1000),
      slug: text(200),
      content: { type: 'string' },
      metadata: { type: 'object' },
    },
    additionalProperties: false,
  },
  webhook: {
    type: 'object',
    required: ['endpoint', 'events'],
    properties: {
      id,
      title: { type: 'string' },
      endpoint: { type: 'string' },
      events: { type: 'array', items: { type: 'string' } },
      object_types: nullable({ type: 'array', items: { type: 'string' } }),
      props: nullable({ type: 'string' }),
      payload: { type: 'boolean' },
      enabled: { type: 'boolean' },
      header_names: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  },
  block: {
    type: 'object',
    required: ['slug', 'title', 'object_types'],
    properties: {
      slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 },
      title: { type: 'string', minLength: 1, maxLength: 200 },
      description: text(2000),
      object_types: { type: 'array', minItems: 1, items: { type: 'object' } },
      objects: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'type', 'title'],
          properties: {
            id,
            type: { type: 'string', minLength: 1 },
            title: text(1000),
            slug: text(200),
            status: { enum: ['published', 'draft'] },
            content: { type: 'string' },
            thumbnail: { type: 'string' },
            metadata: { type: 'object' },
          },
          additionalProperties: false,
        },
      },
      media: {
        type: 'array',
        items: {
          type: 'object',
          required: ['file'],
          properties: {
            file: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 200 },
            folder: { type: 'string' },
            alt_text: { type: 'string' },
            metadata: { type: 'object' },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
} as const;

/** A Block as its readable source states it (blocks/<name>/block.json). */
export interface BlockSource {
  slug: string;
  title: string;
  description?: string;
  object_types: Record<string, unknown>[];
  /** Starter Objects; relationship values name other starter Objects by `id`, file values media by `file`. */
  objects?: ({ id: string; type: string; status?: 'published' | 'draft' } & Omit<VersionRecord, 'status'>)[];
  /** Files under the Block's media/ folder. */
  media?: { file: string; folder?: string; alt_text?: string; metadata?: Record<string, unknown> }[];
}

export interface RecordTypes {
  manifest: Manifest;
  type: Record<string, unknown> & { slug: string; title: string };
  media: MediaRecord;
  object: ObjectRecord;
  revision: RevisionRecord;
  webhook: WebhookRecord;
  block: BlockSource;
}

const ajv = newAjv();
const compiled = new Map<keyof RecordTypes, ValidateFunction>();

function validatorOf(kind: keyof RecordTypes): ValidateFunction {
  let validate = compiled.get(kind);
  if (!validate) {
    validate = ajv.compile(SCHEMAS[kind]);
    compiled.set(kind, validate);
  }
  return validate;
}

/** The record as its kind, or a MigrationError naming where it is (`where`) and every problem. */
export function checkRecord<K extends keyof RecordTypes>(kind: K, value: unknown, where: string): RecordTypes[K] {
  const validate = validatorOf(kind);
  if (validate(value)) return value as RecordTypes[K];
  throw new MigrationError(`${where}: ${describeAjvErrors(validate.errors, kind).join('; ')}`);
}
