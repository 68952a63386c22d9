import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadSchemas } from '../schemas.js';

// ajv-formats is CommonJS: the default import is its module.exports, which carries the plugin as `.default`.
const addFormats = addFormatsModule.default;

/**
 * The one Ajv instance: every schema in schemas/ is registered under its `$id`, so a body
 * validator is `ajv.getSchema('ObjectTypeCreate')`. allErrors lets one 400 list every problem.
 */
export const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
for (const schema of loadSchemas()) ajv.addSchema(schema);

export function validatorFor(id: string) {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`No schema "${id}" in schemas/`);
  return validate;
}
