import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import request from 'supertest';
import { freshHarness, type Harness } from '../support/harness.js';
import { buildTypedFlow, compileErrors, generatedTypes, typedClientDir } from '../support/typed-client.js';

/**
 * What spec/typed-client/flow.mts exports, once compiled. Declared here rather than imported:
 * the flow compiles only beside the generated types, which the build does not have.
 */
interface FlowModule {
  typedFlow: (
    origin: string,
    slug: string,
    writeKey: string,
  ) => Promise<{
    typeSlug: string;
    created: { id: string; rating: unknown };
    listed: { titles: string[]; total: number };
    narrowedTitle: string | undefined;
    patchedRating: unknown;
    notFound: { status: number; message: string } | undefined;
  }>;
}

/**
 * Third-party tooling over GET /v3/openapi.json, offline: Redocly's linter with its recommended
 * rules, openapi-typescript's generated types, and a client written against them (openapi-fetch).
 */
describe('GET /v3/openapi.json in third-party tooling', function () {
  // Generating and compiling 10k lines of types takes a few seconds on a busy machine.
  this.timeout(120_000);
  let h: Harness;
  let doc: Record<string, unknown>;
  let types: string;
  before(async () => {
    h = await freshHarness();
    doc = (await request(h.app).get('/v3/openapi.json').expect(200)).body;
    types = await generatedTypes(doc);
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  it('passes Redocly lint with the recommended rules: no errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
    assert.deepEqual(errors, []);
    // Warnings stay (ambiguous v1 paths the legacy clients call, /status without a 4XX as the spec says).
    assert.ok(problems.length < 30, `${problems.length} warnings`);
  });

  it("has openapi-typescript's output compile with TypeScript's default options", () => {
    fs.mkdirSync(typedClientDir, { recursive: true });
    const file = path.join(typedClientDir, 'defaults.ts');
    fs.writeFileSync(file, types);
    assert.deepEqual(compileErrors([file], { noEmit: true, types: [] }), []);
    assert.match(types, /"\/v3\/buckets\/\{slug\}\/objects": \{/);
  });

  it('runs a typed client (create a type, an Object with metadata, list, narrow, patch, read an error) against the app', async () => {
    const built = buildTypedFlow(types);
    assert.deepEqual(built.errors, []);
    const { typedFlow } = (await import(built.module)) as FlowModule;
    const keys = await h.bucket('typed');
    const server = http.createServer(h.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await typedFlow(`http://127.0.0.1:${port}`, 'typed', keys.write_key ?? '');
      assert.equal(result.typeSlug, 'books');
      assert.equal(result.created.rating, 4);
      assert.deepEqual(result.listed, { titles: ['Dune'], total: 1 });
      assert.equal(result.narrowedTitle, 'Dune');
      assert.equal(result.patchedRating, 5);
      assert.ok(result.notFound, 'the 404 answers the error body');
      assert.equal(result.notFound.status, 404);
      assert.match(result.notFound.message, /000000000000000000000000/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
