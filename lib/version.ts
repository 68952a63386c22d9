import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './project-root.js';

export const serviceVersion: string = (
  JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
).version;
