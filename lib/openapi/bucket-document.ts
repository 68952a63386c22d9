import type { ObjectTypeDoc } from '../db/collections.js';
import type { Schema } from '../metafields/kind.js';
import { isPlainObject } from '../util/values.js';
import { componentRef, typeComponents, typeSchemaNames, type TypeSchemaNames } from './type-schemas.js';

/** Where the document lists each type's schema names, for generators (bucketctl types) to name them by. */
export const OBJECT_TYPES_EXTENSION = 'x-object-types';

type Doc = Record<string, unknown>;

const record = (value: unknown): Doc => (isPlainObject(value) ? value : {});

/** A JSON request body of `schema`, in place of the operation's own. */
function withBody(operation: unknown, schema: Schema): Doc {
  const op = record(operation);
  return { ...op, requestBody: { ...record(op.requestBody), content: { 'application/json': { schema } } } };
}

/** The key of a v3 path: with its `/v3` where the document's server is the origin, as written otherwise. */
export function v3PathKey(paths: Doc, path: string): string {
  return `/v3${path}` in paths ? `/v3${path}` : path;
}

/** `path`'s `method` operation, replaced by `edit` of it, leaving the base document as it was. */
function editOperation(paths: Doc, v3Path: string, method: string, edit: (op: unknown) => Doc): void {
  const path = v3PathKey(paths, v3Path);
  const item = record(paths[path]);
  if (!(method in item)) throw new Error(`openapi: no ${method} ${path} to describe per type`);
  paths[path] = { ...item, [method]: edit(item[method]) };
}

/**
 * The served document (openApiDocument) with one Bucket's Object types: per type, the component
 * schemas of its Objects and metadata (lib/openapi/type-schemas.ts), and the v3 create and edit
 * bodies as the union of the types' bodies (create by its `type`, a discriminator). The base is
 * copied where it changes, never modified: one base serves every Bucket.
 */
export function bucketDocument(base: Doc, bucketSlug: string, types: readonly ObjectTypeDoc[]): Doc {
  const names = typeSchemaNames(types.map((t) => t.slug));
  const components = record(base.components);
  const schemas: Doc = { ...record(components.schemas) };
  const bases = {
    object: record(schemas.Object),
    create: record(schemas.ObjectCreate),
    patch: record(schemas.ObjectPatch),
  };
  for (const type of types) {
    for (const [name, schema] of Object.entries(typeComponents(type, names, bases))) {
      if (name in schemas) throw new Error(`openapi: schema ${name} of type ${type.slug} is taken`);
      schemas[name] = schema;
    }
  }
  const paths: Doc = { ...record(base.paths) };
  const own = [...names.values()];
  if (own.length > 0) {
    editOperation(paths, '/buckets/{slug}/objects', 'post', (op) =>
      withBody(op, {
        oneOf: own.map((n) => componentRef(n.create)),
        discriminator: {
          propertyName: 'type',
          mapping: Object.fromEntries([...names].map(([slug, n]) => [slug, `#/components/schemas/${n.create}`])),
        },
      }),
    );
    // A patch names no type, so which type's body applies is the Object's: any of them.
    editOperation(paths, '/buckets/{slug}/objects/{object_id}', 'patch', (op) =>
      withBody(op, { anyOf: own.map((n) => componentRef(n.patch)) }),
    );
  }
  const info = record(base.info);
  return {
    ...base,
    info: {
      ...info,
      title: `${String(info.title)}: Bucket ${bucketSlug}`,
      description: `${String(info.description)} This document describes the Object types of the Bucket '${bucketSlug}' as they were when it was served: per type, Object_<Type>, ObjectCreate_<Type>, ObjectPatch_<Type> and their Metadata_ schemas (listed by slug in ${OBJECT_TYPES_EXTENSION}).`,
    },
    paths,
    components: { ...components, schemas },
    [OBJECT_TYPES_EXTENSION]: Object.fromEntries(names) satisfies Record<string, TypeSchemaNames>,
  };
}
