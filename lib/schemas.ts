import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './project-root.js';

export type JsonSchema = Record<string, unknown> & { $id: string };

/**
 * Every JSON Schema in schemas/. Each names itself by `$id` and refers to others by bare
 * name (`{"$ref": "Metafield"}`): Ajv resolves those directly and the OpenAPI builder rewrites
 * them to component references. Read afresh on each call: callers build what they need once.
 */
export function loadSchemas(): JsonSchema[] {
  const dir = path.join(projectRoot, 'schemas');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const schema = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as JsonSchema;
      if (schema.$id !== path.basename(f, '.json'))
        throw new Error(`schemas/${f}: $id must be "${path.basename(f, '.json')}"`);
      return schema;
    });
}
