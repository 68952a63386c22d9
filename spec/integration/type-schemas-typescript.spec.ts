import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { typeScriptOfDocument } from '../../lib/openapi/typescript.js';
import { projectRoot } from '../../lib/project-root.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { testEngine } from '../support/test-engine.js';
import { createTypedTypes } from '../support/typed-bucket.js';

const ID = '0123456789abcdef01234567';

/** A typed client over the generated types: its create takes a type's body and answers its Object. */
const CLIENT = `
import type { ObjectTypes } from './bucket-types.js';
declare function createObject<T extends keyof ObjectTypes>(
  body: ObjectTypes[T]['create'] & { type: T },
): Promise<{ object: ObjectTypes[T]['object'] }>;
`;

/** A create of every kind of Metafield, and reads of the answer typed by kind. */
const TYPED_FLOW = `${CLIENT}
export async function flow(): Promise<void> {
  const made = await createObject({
    title: 'Full',
    type: 'posts',
    metadata: {
      headline: 'Hello', summary: 's', body: '<p>b</p>', notes: '# n', colour: 'r', size: 'M', tags: ['news'],
      featured: true, price: 9.5, launch: '2026-01-02', extra: { any: [1] }, image: 'i.png', author: '${ID}',
      related: ['${ID}'], seo: { title: 'T', weight: 2 }, links: [{ label: 'L', href: 'https://example.com' }],
    },
  });
  const price: number | null = made.object.metadata.price;
  const colour: 'r' | 'g' | undefined = made.object.metadata.colour?.key;
  const author = made.object.metadata.author;
  const name: string | undefined = author !== null && typeof author !== 'string' ? author.metadata.name : undefined;
  const weight: number | null = made.object.metadata.seo.weight;
  await createObject({ title: 'Ann', type: 'authors', metadata: { name: 'Ann' } });
  // Each of these must be refused by the compiler: an unused directive is an error of its own.
  // @ts-expect-error a select-dropdown takes its option keys and values only
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'blue' } });
  // @ts-expect-error a required Metafield (price) is missing
  await createObject({ title: 'x', type: 'posts', metadata: { colour: 'r' } });
  // @ts-expect-error check-boxes take an array of their option values
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'r', tags: 'news' } });
  // @ts-expect-error a switch takes a boolean
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'r', featured: 'yes please' } });
  // @ts-expect-error objects take an array of ids
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'r', related: '${ID}' } });
  // @ts-expect-error a parent's children keep their kinds
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'r', seo: { weight: 'heavy' } } });
  // @ts-expect-error a repeater item has only its repeater_fields
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'r', links: [{ url: 'u' }] } });
  // @ts-expect-error a key the type does not define
  await createObject({ title: 'x', type: 'posts', metadata: { price: 1, colour: 'r', nope: 1 } });
  // @ts-expect-error an author's metadata is not a post's
  await createObject({ title: 'x', type: 'authors', metadata: { name: 'A', price: 1 } });
  void [price, colour, name, weight];
}
`;

/** Must not compile: a number Metafield given text. */
const WRONG_NUMBER = `${CLIENT}
export const wrong = createObject({ title: 'x', type: 'posts', metadata: { colour: 'r', price: 'four' } });
`;

/** Diagnostics of compiling `usage` beside the generated types, strictly, as "file:line TScode message". */
function compile(types: string, usage: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bucket-types-'));
  try {
    fs.writeFileSync(path.join(dir, 'bucket-types.ts'), types);
    fs.writeFileSync(path.join(dir, 'usage.ts'), usage);
    const program = ts.createProgram([path.join(dir, 'usage.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const start = d.start ?? 0;
      const where = d.file ? d.file.getLineAndCharacterOfPosition(start).line + 1 : 0;
      const token = d.file?.text.slice(start, start + (d.length ?? 0)) ?? '';
      const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      return `${path.basename(d.file?.fileName ?? '')}:${where} TS${d.code} at ${token}: ${message}`;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('TypeScript types of a Bucket’s Object types (bucketctl types)', () => {
  const suite = new BucketSuite('typed-ts', createTypedTypes);
  let types: string;

  before(async () => {
    types = typeScriptOfDocument((await suite.api.get('/openapi.json').expect(200)).body);
  });

  it('compiles a typed create of every kind from the document, and refuses wrong values kind by kind', function () {
    this.timeout(60_000);
    assert.match(types, /export type ObjectCreate_Posts = /);
    assert.deepEqual(compile(types, TYPED_FLOW), []);
  });

  it('refuses a number Metafield given text', function () {
    this.timeout(60_000);
    const problems = compile(types, WRONG_NUMBER);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^usage\.ts:7 TS2322 at price: Type 'string' is not assignable to type 'number'/);
  });

  it('bucketctl types writes the same declarations to --out', async function () {
    this.timeout(60_000);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bucketctl-types-')), 'types.ts');
    const h = suite.harness;
    await promisify(execFile)(
      process.execPath,
      [path.join(projectRoot, 'dist', 'bin', 'bucketctl.js'), 'types', 'typed-ts', '--out', out],
      {
        env: {
          ...process.env,
          MONGODB_URI: testEngine().uri,
          DB_NAME: h.db.databaseName,
          PUBLIC_URL: 'http://api.test',
        },
      },
    );
    assert.equal(fs.readFileSync(out, 'utf8'), types);
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
    await assert.rejects(
      promisify(execFile)(process.execPath, [path.join(projectRoot, 'dist', 'bin', 'bucketctl.js'), 'types', 'none'], {
        env: { ...process.env, MONGODB_URI: testEngine().uri, DB_NAME: h.db.databaseName },
      }),
      /Bucket "none" does not exist/,
    );
  });
});
