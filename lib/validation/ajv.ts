import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadSchemas } from '../schemas.js';

// ajv-formats is CommonJS: the default import is its module.exports, which carries the plugin as `.default`.
const addFormats = addFormatsModule.default;

/** Every Ajv of the service is configured alike: allErrors lets one 400 list every problem. */
export function newAjv(): Ajv2020 {
  const instance = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(instance);
  return instance;
}

const fileSchemas = loadSchemas();

/**
 * The Ajv of the files in schemas/, each registered under its `$id`, so a body validator is
 * `ajv.getSchema('ObjectTypeCreate')`. It holds only what the files say (compiled lazily, the
 * same in every app), so it is shared; validators compiled from stored Object types are per
 * app and live on their own Ajv (see metadata-schema.ts).
 */
export const ajv = newAjv();
for (const schema of fileSchemas) ajv.addSchema(schema);

/** The `$id` of every schema in schemas/. */
export const SCHEMA_IDS: readonly string[] = fileSchemas.map((s) => s.$id);

export function validatorFor(id: string) {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`No schema "${id}" in schemas/`);
  return validate;
}
