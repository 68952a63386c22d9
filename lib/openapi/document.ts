import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../project-root.js';
import { loadSchemas } from '../schemas.js';

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

let built: Record<string, unknown> | null = null;

/** openapi/openapi.json (paths, parameters, responses) with schemas/ as its components. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  if (!built) {
    const base = JSON.parse(fs.readFileSync(path.join(projectRoot, 'openapi', 'openapi.json'), 'utf8')) as Record<string, any>;
    const schemas: Record<string, unknown> = {};
    for (const s of loadSchemas()) schemas[s.$id] = toComponentRefs(s);
    base.components = { ...(base.components ?? {}), schemas };
    built = toComponentRefs(base) as Record<string, unknown>;
  }
  return { ...built, servers: [{ url: `${serverUrl}/v3` }] };
}
