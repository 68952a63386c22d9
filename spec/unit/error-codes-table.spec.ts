import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from '../../lib/errors/codes.js';
import { projectRoot } from '../../lib/project-root.js';
import { openApiDocument } from '../../lib/openapi/document.js';

/** The parts of the OpenAPI document these tests read. */
interface SchemaNode {
  enum?: string[];
  required?: string[];
  $ref?: string;
  properties?: Record<string, SchemaNode | undefined>;
  items?: SchemaNode;
}
type OpenApiSchemas = { components: { schemas: Record<string, SchemaNode | undefined> } };

/** The codes listed in the "Errors" section table of docs/api.md, in order. */
function readmeCodes(): string[] {
  const readme = fs.readFileSync(path.join(projectRoot, 'docs', 'api.md'), 'utf8');
  const start = readme.indexOf('\n## Errors\n');
  assert.ok(start >= 0, 'docs/api.md has no "## Errors" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z_]+)` +\| (\d{3}) +\|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe('the table of error codes', () => {
  const table = Object.entries(ERROR_CODES).map(([code, { status }]) => `${code} ${status}`);

  it('is the enum of `code` in the OpenAPI error body and batch results', () => {
    const doc = openApiDocument('http://api.test') as OpenApiSchemas;
    const { ErrorCode, Error: error, BatchResponse } = doc.components.schemas;
    assert.deepEqual(ErrorCode?.enum, Object.keys(ERROR_CODES));
    assert.deepEqual(error?.properties?.code, { $ref: '#/components/schemas/ErrorCode' });
    assert.deepEqual(error.required, ['status', 'code', 'message']);
    assert.equal(
      BatchResponse?.properties?.operations?.items?.properties?.code?.$ref,
      '#/components/schemas/ErrorCode',
    );
  });

  it('is listed in the README with each status', () => {
    assert.deepEqual(readmeCodes(), table);
  });

  it('gives every code a 4xx or 5xx status and a description', () => {
    for (const [code, { status, description }] of Object.entries(ERROR_CODES)) {
      assert.ok(status >= 400 && status <= 599, code);
      assert.ok(description.length > 10, code);
    }
  });
});
