import { V2_MIRRORED_PATHS, V2_OWN_OPERATIONS } from './legacy-v2-operations.js';

const METHODS = new Set(['get', 'post', 'patch', 'delete']);

/** "/buckets/:slug/objects/:object_id" → "/buckets/{slug}/objects/{object_id}" */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The v2 descriptions of the routes v2 serves with v3's handlers: the v3 operation itself,
 * tagged legacy-v2 and deprecated, so the two can never describe one handler differently.
 * `paths` holds the v3 paths and openapi/paths/legacy-v2.json, which must describe each of v2's
 * own operations (V2_OWN_OPERATIONS) and nothing mirrored.
 */
export function v2MirroredPaths(paths: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const expressPath of V2_MIRRORED_PATHS) {
    const v3Item = paths[openApiPath(expressPath)];
    const v2Path = `/v2${openApiPath(expressPath)}`;
    const own = paths[v2Path];
    if (!isRecord(v3Item)) throw new Error(`openapi: no v3 description of ${expressPath}`);
    const item: Record<string, unknown> = isRecord(own) ? { ...own } : {};
    for (const [method, op] of Object.entries(v3Item)) {
      if (!METHODS.has(method) || !isRecord(op)) {
        item[method] ??= op;
        continue;
      }
      const isOwn = V2_OWN_OPERATIONS.has(`${method} ${expressPath}`);
      if (isOwn !== Object.hasOwn(item, method)) {
        throw new Error(
          `openapi: ${method} ${v2Path} must be described in legacy-v2.json ${isOwn ? 'as v2 serves it itself' : 'only by the v3 mirror'}`,
        );
      }
      if (!isOwn) {
        item[method] = { ...op, operationId: `v2_${String(op.operationId)}`, tags: ['legacy-v2'], deprecated: true };
      }
    }
    out[v2Path] = item;
  }
  return out;
}
