import sharp from 'sharp';
import { EVENTS } from '../../lib/store/event-types.js';
import type { Client } from './http.js';
import { bucketctl, type ServiceEnv } from './service.js';

export const BUCKET = 'soak';
export const AUTHOR_COUNT = 20;

export interface Fixture {
  readKey: string;
  writeKey: string;
  /** Ids of Objects no worker changes: the targets of every post's `author` relation. */
  authors: string[];
  /** PNG images of various sizes, uploaded again and again. */
  images: Buffer[];
}

/**
 * Two Object types covering the Metafield kinds a write has to check: text and a sortable number,
 * an object relation to a fixed type and one to the same type (for depth and dangling ids after
 * deletes), and a file that must name a media item of the Bucket.
 */
const TYPES = [
  { title: 'Authors', slug: 'authors', metafields: [{ type: 'text', title: 'Name', key: 'name', value: '' }] },
  {
    title: 'Posts',
    slug: 'posts',
    metafields: [
      { type: 'text', title: 'Body', key: 'body', value: '' },
      { type: 'number', title: 'Score', key: 'score', value: '', sortable: true },
      { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' },
      { type: 'object', title: 'Related', key: 'related', value: '', object_type: 'posts' },
      { type: 'file', title: 'Image', key: 'image', value: '' },
    ],
  },
];

/** A blocky pattern compresses like a real picture (a few KB to a few hundred), unlike noise. */
async function makeImage(width: number, height: number, seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = ((x >> 4) * 31 + (y >> 4) * 17 + seed * 13) & 0xff;
      raw[i] = block;
      raw[i + 1] = (x * 255) / width;
      raw[i + 2] = (y * 255) / height;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function mustOk(client: Client, kind: string, method: 'POST', path: string, json: unknown): Promise<unknown> {
  const a = await client.request(kind, { method, path, json });
  if (a.sent !== true || a.status !== 200) {
    throw new Error(`setup: ${method} ${path} failed: ${a.sent === true ? `${a.status} ${a.text}` : a.error}`);
  }
  return a.body;
}

export async function keysFromCli(env: ServiceEnv): Promise<{ readKey: string; writeKey: string }> {
  const out = JSON.parse(await bucketctl(env, ['create-bucket', BUCKET])) as { read_key: string; write_key: string };
  return { readKey: out.read_key, writeKey: out.write_key };
}

export async function seedFixture(client: Client, keys: { readKey: string; writeKey: string }): Promise<Fixture> {
  const base = `/v3/buckets/${BUCKET}`;
  for (const type of TYPES) await mustOk(client, 'setup', 'POST', `${base}/object-types`, type);
  const authors: string[] = [];
  for (let i = 0; i < AUTHOR_COUNT; i++) {
    const body = (await mustOk(client, 'setup', 'POST', `${base}/objects`, {
      title: `Author ${i}`,
      type: 'authors',
      status: 'published',
      metadata: { name: `Author number ${i}` },
    })) as { object: { id: string } };
    authors.push(body.object.id);
  }
  const sizes: Array<[number, number]> = [
    [64, 48],
    [160, 120],
    [320, 240],
    [480, 360],
    [640, 480],
    [800, 600],
    [1024, 768],
    [300, 900],
  ];
  const images = await Promise.all(sizes.map(([w, h], i) => makeImage(w, h, i)));
  return { ...keys, authors, images };
}

/** Subscribes the receiver to every event, ids only; returns the signing secret (answered only now). */
export async function registerWebhook(client: Client, url: string): Promise<string> {
  const body = (await mustOk(client, 'setup', 'POST', `/v3/buckets/${BUCKET}/webhooks`, {
    endpoint: url,
    events: Object.keys(EVENTS),
    payload: false,
  })) as { webhook: { secret: string } };
  return body.webhook.secret;
}
