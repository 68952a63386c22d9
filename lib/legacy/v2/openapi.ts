import { V2_MIRRORED_PATHS } from './routes.js';

const METHODS = new Set(['get', 'post', 'patch', 'delete']);

/** "/buckets/:slug/objects/:object_id" → "/buckets/{slug}/objects/{object_id}" */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/**
 * The v2 descriptions of the routes v2 serves with v3's handlers: the v3 operation itself,
 * tagged legacy-v2 and deprecated, so the two can never describe one handler differently.
 */
export function v2MirroredPaths(v3Paths: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const expressPath of V2_MIRRORED_PATHS) {
    const item = v3Paths[openApiPath(expressPath)];
    if (typeof item !== 'object' || item === null) throw new Error(`openapi: no v3 description of ${expressPath}`);
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item)) {
      if (!METHODS.has(key) || typeof value !== 'object' || value === null) {
        copy[key] = value;
        continue;
      }
      const op = value as Record<string, unknown>;
      copy[key] = {
        ...op,
        operationId: `v2_${String(op.operationId)}`,
        tags: ['legacy-v2'],
        deprecated: true,
      };
    }
    out[`/v2${openApiPath(expressPath)}`] = copy;
  }
  return out;
}
