import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project-root.js';
import { v2MirroredPaths } from './legacy-v2.js';
import { addAccountSecurity } from './account-security.js';
import { loadSchemas } from '../schemas.js';
import { addGateAnswers } from './gate-answers.js';
import { addParameterAnswers } from './parameter-answers.js';
import { addConditionalAnswers } from './conditional-answers.js';
import { addIdempotencyKeys } from './idempotency.js';

/** Bare-name references (Ajv's form) become component references (OpenAPI's form). */
function toComponentRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponentRefs);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$id') continue;
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) out[k] = `#/components/schemas/${v}`;
    else out[k] = toComponentRefs(v);
  }
  return out;
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** Path items live one file per resource in openapi/paths/, so resources are described apart. */
function loadPaths(): Record<string, unknown> {
  const dir = path.join(projectRoot, 'openapi', 'paths');
  const paths: Record<string, unknown> = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    for (const [p, item] of Object.entries(readJson(path.join(dir, file)))) {
      if (p in paths) throw new Error(`openapi/paths/${file}: path ${p} is already described in another file`);
      paths[p] = item;
    }
  }
  return paths;
}

/**
 * Every path as the origin serves it: v3's gain their `/v3`, legacy ones carry their version
 * already. One server (the origin) then resolves every path alike, in every generator: per-path
 * `servers`, which most clients ignore, sent `/v1/…` to `/v3/v1/…` from a `/v3` server.
 */
function fromOrigin(paths: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(paths).map(([p, item]) => [/^\/v[12]\//.test(p) ? p : `/v3${p}`, item]));
}

/**
 * openapi/openapi.json (shared parameters, responses) + openapi/paths/*.json + the requests the
 * service sends (openapi/webhooks.json, OpenAPI 3.1's top-level `webhooks`), with schemas/ as components.
 */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const base = readJson(path.join(projectRoot, 'openapi', 'openapi.json'));
  const paths = loadPaths();
  const all = { ...paths, ...v2MirroredPaths(paths) };
  addGateAnswers(all);
  addParameterAnswers(all);
  addConditionalAnswers(all);
  addIdempotencyKeys(all);
  addAccountSecurity(all);
  base.paths = fromOrigin(all);
  base.webhooks = readJson(path.join(projectRoot, 'openapi', 'webhooks.json'));
  const schemas: Record<string, unknown> = {};
  for (const s of loadSchemas()) schemas[s.$id] = toComponentRefs(s);
  const components = typeof base.components === 'object' && base.components !== null ? base.components : {};
  base.components = { ...components, schemas };
  return { ...(toComponentRefs(base) as Record<string, unknown>), servers: [{ url: serverUrl }] };
}
