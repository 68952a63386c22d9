import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { projectRoot } from '../../lib/project-root.js';

/** Where the generated types and the compiled flow go: under the project, so `openapi-fetch` resolves. */
export const typedClientDir = path.join(projectRoot, 'dist', 'typed-client');

/** openapi-typescript's output for a document, with its default options. */
export async function generatedTypes(doc: Record<string, unknown>): Promise<string> {
  return astToString(await openapiTS(doc as unknown as OpenAPI3));
}

/** The compiler's errors for `files` (one line each), emitting them when `options` ask for it. */
export function compileErrors(files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, options);
  const emitted = options.noEmit === true ? undefined : program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...(emitted?.diagnostics ?? [])];
  return diagnostics.map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} `
      : '';
    return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/**
 * Writes the generated types as api.ts beside a copy of spec/typed-client/flow.mts and
 * compiles both as a strict ESM project would; answers the compiler's errors and, when there
 * are none, the path of the emitted flow module.
 */
export function buildTypedFlow(types: string): { errors: string[]; module: string } {
  fs.mkdirSync(typedClientDir, { recursive: true });
  fs.writeFileSync(path.join(typedClientDir, 'api.ts'), types);
  const flow = path.join(typedClientDir, 'flow.mts');
  fs.copyFileSync(path.join(projectRoot, 'spec', 'typed-client', 'flow.mts'), flow);
  const errors = compileErrors([flow], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    types: [],
    outDir: typedClientDir,
    rootDir: typedClientDir,
  });
  return { errors, module: path.join(typedClientDir, 'flow.mjs') };
}
