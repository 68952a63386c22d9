import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../../lib/openapi/document.js';

// ajv-formats is CommonJS: the default import is its module.exports, which carries the plugin as `.default`.
const addFormats = addFormatsModule.default;

/** The origin the test harness gives the app (PUBLIC_URL): legacy paths are served from it. */
const ORIGIN = 'http://api.test';

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, Json> };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One documented path as the app serves it (server prefix included), as a matcher. */
interface Template {
  /** The document's path key, e.g. `/buckets/{slug}/objects`. */
  key: string;
  pattern: RegExp;
  /** Literal segments win over parameters where two templates match, as the routes are declared. */
  literals: number;
}

/** A server URL's path below the origin: `http://api.test/v3` → `/v3`, the origin → ``. */
function serverPrefix(servers: unknown, fallback: string): string {
  const url = Array.isArray(servers) && isObject(servers[0]) ? servers[0].url : undefined;
  return typeof url === 'string' ? new URL(url, ORIGIN).pathname.replace(/\/$/, '') : fallback;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function template(key: string, prefix: string): Template {
  const full = prefix + key;
  const segments = full.split('/').slice(1);
  // A `{path}` parameter last is a wildcard (`*path` in express): it spans slashes.
  const source = segments
    .map((s, i) =>
      /^\{.+\}$/.test(s) ? (i === segments.length - 1 && s === '{path}' ? '(.+)' : '([^/]+)') : escapeRegExp(s),
    )
    .join('/');
  return { key, pattern: new RegExp(`^/${source}$`), literals: segments.filter((s) => !s.startsWith('{')).length };
}

/**
 * Validators of the responses the OpenAPI document describes, by operation and status. Each
 * response schema is compiled the first time an answer needs it, then reused.
 */
export class ResponseSchemas {
  private readonly doc: Json;
  private readonly ajv: Ajv2020;
  private readonly templates: Template[];
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor() {
    this.doc = openApiDocument(ORIGIN);
    // Lenient about keywords (the document carries OpenAPI's own, such as `example`), strict about values.
    this.ajv = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    const components = isObject(this.doc.components) ? this.doc.components : {};
    this.ajv.addSchema({ $id: 'doc', components: { schemas: components.schemas } });
    const top = serverPrefix(this.doc.servers, '');
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    this.templates = Object.entries(paths).map(([key, item]) =>
      template(key, serverPrefix(isObject(item) ? item.servers : undefined, top)),
    );
  }

  /** The document's path key for a served path, or undefined for a path it does not describe. */
  match(urlPath: string): string | undefined {
    let best: Template | undefined;
    for (const t of this.templates) {
      if (t.pattern.test(urlPath) && (!best || t.literals > best.literals)) best = t;
    }
    return best?.key;
  }

  private resolveResponse(response: Json | undefined): Json | undefined {
    const ref = response?.$ref;
    if (typeof ref !== 'string') return response;
    const name = ref.split('/').pop() ?? '';
    const shared = isObject(this.doc.components) ? this.doc.components.responses : undefined;
    return isObject(shared) && isObject(shared[name]) ? shared[name] : undefined;
  }

  /** Most answers share a schema (every refusal is Error): each distinct one is compiled once. */
  private readonly bySchema = new Map<string, ValidateFunction>();

  private compile(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.bySchema.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema) as Json);
      this.bySchema.set(key, validate);
    }
    return validate;
  }

  /** Whether the document describes `method` at the path: other methods there are no route of the app. */
  describes(pathKey: string, method: string): boolean {
    const item = (this.doc.paths as Record<string, Record<string, unknown>>)[pathKey];
    return isObject(item?.[method]);
  }

  /**
   * The validator of the JSON body an operation answers with `status`; null when the document
   * describes that answer without a JSON body; undefined when it does not describe the answer.
   */
  validator(pathKey: string, method: string, status: number): ValidateFunction | null | undefined {
    const id = `${method} ${pathKey} ${status}`;
    if (this.compiled.has(id)) return this.compiled.get(id);
    const paths = this.doc.paths as Record<string, Record<string, Operation>>;
    const responses = paths[pathKey]?.[method]?.responses;
    if (!responses) return undefined;
    const response = this.resolveResponse(
      responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default,
    );
    if (!response) return undefined;
    const content = isObject(response.content) ? response.content : {};
    const json = content['application/json'];
    const schema = isObject(json) ? json.schema : undefined;
    const validate = isObject(schema) ? this.compile(schema) : null;
    this.compiled.set(id, validate);
    return validate;
  }
}

/** Component references point into the schema registered as `doc`. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rebase(v);
  return out;
}
