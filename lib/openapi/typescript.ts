import { isPlainObject } from '../util/values.js';
import { OBJECT_TYPES_EXTENSION } from './bucket-document.js';
import type { TypeSchemaNames } from './type-schemas.js';

/*
 * TypeScript declarations of a Bucket's Object types from its OpenAPI document
 * (GET /v3/buckets/{slug}/openapi.json; `bucketctl types`). It translates the JSON Schema the
 * service itself generates (lib/openapi/type-schemas.ts and the components they reference), so
 * it needs only that part of the language: $ref, allOf, anyOf/oneOf, const, enum, `not: {}`,
 * type (one or several), properties/required/additionalProperties and items. Anything else
 * (patterns, lengths, formats) is not a type: it reads as the type it narrows.
 */

type Schema = Record<string, unknown>;

/** Component names that would shadow a global of TypeScript's lib get a prefix. */
const SHADOWS = new Set(['Object', 'Error', 'Date', 'Array', 'String', 'Number', 'Boolean', 'Function', 'Record']);
const tsName = (component: string): string => (SHADOWS.has(component) ? `Api${component}` : component);
const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertyName = (key: string): string => (IDENTIFIER.test(key) ? key : JSON.stringify(key));

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown';
}

/** Whether `text` has a union operator outside brackets and string literals. */
function topLevelUnion(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') {
      for (i++; i < text.length && text.charAt(i) !== '"'; i++) if (text.charAt(i) === '\\') i++;
    } else if ('{[(<'.includes(c)) depth++;
    else if ('}])>'.includes(c)) depth--;
    else if (depth === 0 && c === '|') return true;
  }
  return false;
}

/** A member of an intersection, in parentheses where it is a union (`&` binds tighter than `|`). */
const member = (text: string): string => (topLevelUnion(text) ? `(${text})` : text);

function comment(text: unknown, indent: string): string {
  return typeof text === 'string' ? `${indent}/** ${text.replace(/\*\//g, '* /')} */\n` : '';
}

function objectType(s: Schema, indent: string): string {
  const properties = isPlainObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const inner = `${indent}  `;
  // Keys required here but described elsewhere (an allOf beside it) only become required.
  const described = [
    ...Object.entries(properties),
    ...[...required].filter((k) => !Object.hasOwn(properties, k)).map((k) => [k, true] as const),
  ];
  const lines = described.map(
    ([key, value]) =>
      `${comment(isPlainObject(value) ? value.description : undefined, inner)}${inner}${propertyName(key)}${
        required.has(key) ? '' : '?'
      }: ${typeOf(value, inner)};\n`,
  );
  if (s.additionalProperties === true || isPlainObject(s.additionalProperties) || lines.length === 0) {
    if (s.additionalProperties !== false) lines.push(`${inner}[key: string]: unknown;\n`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('')}${indent}}`;
}

function oneType(type: unknown, s: Schema, indent: string): string {
  switch (type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return type;
    case 'integer':
      return 'number';
    case 'array':
      return `Array<${typeOf(s.items, indent)}>`;
    case 'object':
      return objectType(s, indent);
    default:
      return 'unknown';
  }
}

/** The TypeScript type a schema describes. */
export function typeOf(schema: unknown, indent = ''): string {
  if (schema === false) return 'never';
  if (!isPlainObject(schema)) return 'unknown';
  const s = schema;
  if (typeof s.$ref === 'string') return tsName(refName(s.$ref));
  if (Array.isArray(s.allOf)) {
    // The schema's own keywords apply beside its allOf: one more member of the intersection.
    const { allOf, description: _, ...own } = s;
    const members = (allOf as unknown[]).map((x) => member(typeOf(x, indent)));
    if (Object.keys(own).length > 0) members.push(member(typeOf(own, indent)));
    return members.join(' & ');
  }
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union) return union.map((x) => typeOf(x, indent)).join(' | ');
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(' | ');
  if (isPlainObject(s.not) && Object.keys(s.not).length === 0) return 'never';
  const objectish = 'properties' in s || 'required' in s;
  const types = Array.isArray(s.type) ? s.type : s.type !== undefined ? [s.type] : objectish ? ['object'] : [];
  if (types.length === 0) return 'unknown';
  return types.map((t) => oneType(t, s, indent)).join(' | ');
}

/** Component names a schema references, at any depth. */
function refsOf(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) refsOf(item, into);
  else if (isPlainObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(refName(value));
      else refsOf(value, into);
    }
  }
}

/** TypeScript source declaring every Object type of the document, and the components they reference. */
export function typeScriptOfDocument(doc: Record<string, unknown>): string {
  const types = (doc[OBJECT_TYPES_EXTENSION] ?? {}) as Record<string, TypeSchemaNames>;
  const components = (isPlainObject(doc.components) ? doc.components : {}) as { schemas?: Record<string, unknown> };
  const schemas = components.schemas ?? {};
  const wanted = new Set<string>(Object.values(types).flatMap((n) => Object.values(n) as string[]));
  // Referenced components are declared too, until no new one turns up.
  for (let size = -1; size !== wanted.size;) {
    size = wanted.size;
    for (const name of [...wanted]) refsOf(schemas[name], wanted);
  }
  const declarations = [...wanted].sort().map((name) => {
    const schema = schemas[name];
    const described = comment(isPlainObject(schema) ? schema.description : undefined, '');
    return `${described}export type ${tsName(name)} = ${typeOf(schema)};\n`;
  });
  const map = Object.entries(types).map(
    ([slug, n]) =>
      `  ${JSON.stringify(slug)}: { object: ${n.object}; create: ${n.create}; patch: ${n.patch}; metadata: ${n.metadata} };\n`,
  );
  const info = isPlainObject(doc.info) ? doc.info : {};
  return [
    `// Generated from ${String(info.title)} (bucketctl types). Do not edit: generate again after changing an Object type.\n\n`,
    declarations.join('\n'),
    `\n/** Each Object type by slug: its answered Object, create and patch bodies, and metadata. */\nexport interface ObjectTypes {\n${map.join('')}}\n`,
  ].join('');
}
