import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBlock } from '../../lib/migrate/block-source.js';
import { installBlock } from '../../lib/migrate/install-block.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { projectRoot } from '../../lib/project-root.js';
import { validatorFor } from '../../lib/validation/ajv.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { writeTestBundle } from '../support/bundle-builder.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

const block = (name: string) => path.join(projectRoot, 'blocks', name);

describe('Blocks: bucketctl install-block and GET /blocks', () => {
  let dir: string;
  const options = { dryRun: false, progress: SILENT, mediaMaxBytes: 1 << 20 };
  const deps = () => ({
    db: suite.harness.db,
    events: suite.harness.writes.events,
    validators: new MetadataValidators(),
  });

  const suite = new BucketSuite('site', async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'blocks-'));
    await suite.api.post('/object-types', { title: 'Pages', slug: 'pages' }).expect(200);
    await suite.api.post('/objects', { title: 'Home', type: 'pages' }).expect(200);
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('lists no Blocks before any is installed', async () => {
    assert.deepEqual((await suite.api.get('/blocks').expect(200)).body, { blocks: [] });
  });

  it('installs the blog Block from its source folder beside what the Bucket holds', async () => {
    const summary = await installBlock(deps(), 'site', block('blog'), options);
    assert.deepEqual(summary.warnings, []);
    assert.deepEqual(summary.written, { types: 3, media: 1, objects: 4, versions: 4, webhooks: 0 });
    const res = await suite.api.get('/blocks').expect(200);
    assert.equal(validatorFor('BlocksList')(res.body), true);
    const [blog] = res.body.blocks as Record<string, unknown>[];
    assert.deepEqual(
      { ...blog, id: undefined, installed_at: undefined },
      {
        id: undefined,
        installed_at: undefined,
        slug: 'blog',
        title: 'Blog',
        object_types: ['authors', 'categories', 'posts'],
      },
    );
    const types = (await suite.api.get('/object-types').expect(200)).body.object_types as { slug: string }[];
    assert.deepEqual(types.map((t) => t.slug).sort(), ['authors', 'categories', 'pages', 'posts']);
    const post = (await suite.api.get('/objects?query={"type":"posts"}&depth=1').expect(200)).body.objects[0];
    assert.equal(post.title, 'Welcome to your blog');
    assert.equal(post.metadata.author.title, 'The Team');
    assert.deepEqual(
      post.metadata.categories.map((c: { title: string }) => c.title),
      ['News', 'Guides'],
    );
    assert.match(post.metadata.cover.url, /\/files\/site\/[0-9a-f]{16}-blog-cover\.svg$/);
    assert.equal((await suite.api.get('/objects?query={"type":"pages"}').expect(200)).body.total, 1);
  });

  it('installs the FAQ Block from a built bundle, and lists both, oldest first', async () => {
    const bundle = path.join(dir, 'faq.tar.gz');
    const manifest = await buildBlock(block('faq'), bundle, true);
    assert.deepEqual(manifest.block, {
      slug: 'faq',
      title: 'FAQ',
      description: manifest.block?.description,
    });
    await installBlock(deps(), 'site', bundle, options);
    const blocks = (await suite.api.get('/blocks').expect(200)).body.blocks as {
      slug: string;
      object_types: string[];
    }[];
    assert.deepEqual(
      blocks.map((b) => [b.slug, b.object_types]),
      [
        ['blog', ['authors', 'categories', 'posts']],
        ['faq', ['faq-sections', 'faqs']],
      ],
    );
    const faqs = (await suite.api.get('/objects?query={"type":"faqs"}&sort=metadata.position&depth=1').expect(200)).body
      .objects as { title: string; metadata: { section: { title: string }; links: unknown[] } }[];
    assert.deepEqual(
      faqs.map((f) => [f.title, f.metadata.section.title, f.metadata.links.length]),
      [
        ['What is this site about?', 'General', 0],
        ['How do I get in touch?', 'General', 1],
      ],
    );
  });

  it('installing a Block again does nothing', async () => {
    const again = await installBlock(deps(), 'site', block('blog'), options);
    assert.equal(again.already_imported, true);
    assert.equal((await suite.api.get('/blocks').expect(200)).body.blocks.length, 2);
  });

  it('refuses a Bucket whose types clash, a Bucket that does not exist, and a bundle that is not a Block', async () => {
    const other = bucketClient(suite.harness.app, await suite.harness.bucket('clash'));
    await other.post('/object-types', { title: 'Posts', slug: 'posts' }).expect(200);
    await assert.rejects(
      installBlock(deps(), 'clash', block('blog'), options),
      /Bucket "clash" already has Object type\(s\) posts, which Block "blog" brings/,
    );
    assert.deepEqual((await other.get('/blocks').expect(200)).body, { blocks: [] });
    await assert.rejects(installBlock(deps(), 'missing', block('faq'), options), /Bucket "missing" does not exist/);
    await assert.rejects(installBlock(deps(), 'site', path.join(dir, 'none'), options), /cannot read/);
    const plain = path.join(dir, 'plain.tar');
    await writeTestBundle(plain, { types: [{ slug: 'notes', title: 'Notes' }] });
    await assert.rejects(
      installBlock(deps(), 'site', plain, options),
      /plain\.tar is not a Block: its manifest names no block/,
    );
  });
});
