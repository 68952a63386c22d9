#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import { metafieldSchema } from '../lib/metafields/definition-schema.js';
import { projectRoot } from '../lib/project-root.js';

/** Writes schemas/Metafield.json from the table of Metafield kinds; a unit test compares. */

export const METAFIELD_SCHEMA_FILE = path.join(projectRoot, 'schemas', 'Metafield.json');

/** The file's text, formatted as the repository's prettier settings want it. */
export async function generateMetafieldSchema(): Promise<string> {
  const config = await prettier.resolveConfig(METAFIELD_SCHEMA_FILE);
  return prettier.format(JSON.stringify(metafieldSchema()), { ...config, filepath: METAFIELD_SCHEMA_FILE });
}

async function main(): Promise<void> {
  fs.writeFileSync(METAFIELD_SCHEMA_FILE, await generateMetafieldSchema());
  console.log(`wrote ${path.relative(projectRoot, METAFIELD_SCHEMA_FILE)}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
