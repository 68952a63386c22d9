#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { optionsTable } from '../lib/config/options-docs.js';
import { projectRoot } from '../lib/project-root.js';

/* Rewrites the README's configuration table from lib/config/options.ts (then run prettier on it). */
const readme = path.join(projectRoot, 'README.md');
const lines = fs.readFileSync(readme, 'utf8').split('\n');
const start = lines.findIndex((l) => l.startsWith('| Variable'));
if (start < 0) throw new Error('README.md has no configuration table');
let end = start;
while (lines[end]?.startsWith('|')) end++;
lines.splice(start, end - start, optionsTable());
fs.writeFileSync(readme, lines.join('\n'));
