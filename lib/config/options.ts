/**
 * Every environment variable the service reads, declared once: its name, how it is read, its
 * default and what it means. The loader (lib/config.ts) reads through these declarations, the
 * README's configuration table is checked against them (spec/unit/config-options.spec.ts), and
 * `node dist/bin/server.js --help` prints them.
 */
import type { OptionDecl } from './option-types.js';
import { SERVICE_OPTIONS } from './options-service.js';
import { TRAFFIC_OPTIONS } from './options-traffic.js';

export type { OptionDecl, OptionKind } from './option-types.js';

export const OPTIONS: readonly OptionDecl[] = [...SERVICE_OPTIONS, ...TRAFFIC_OPTIONS];
