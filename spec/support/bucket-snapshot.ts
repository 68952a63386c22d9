import assert from 'node:assert/strict';
import type { Express } from 'express';
import request from 'supertest';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { isPlainObject } from '../../lib/util/values.js';

/**
 * What a Bucket's v3 API answers, in a form two Buckets holding the same content answer alike:
 * Object ids become "type:slug" labels wherever they appear (ids, relationships, revisions'
 * object_id), the Bucket slug and the random prefix of media names leave the file URLs, and the
 * fields a copy cannot share (media and revision ids, type ids and times) are left out.
 */
export interface Snapshot {
  types: unknown[];
  media: unknown[];
  lists: Record<string, unknown>;
  objects: Record<string, { object: unknown; revisions: unknown }>;
}

type Client = (path: string) => request.Test;

export function readClient(target: Express | string, keys: IssuedKeys): Client {
  return (path) => {
    const key = keys.read_key === null ? '' : `${path.includes('?') ? '&' : '?'}read_key=${keys.read_key}`;
    const url = `/v3/buckets/${keys.slug}${path}${key}`;
    const t = request(target).get(url);
    return keys.write_key ? t.set('Authorization', `Bearer ${keys.write_key}`) : t;
  };
}

/** A list matching nothing answers 404 no_match: kept as that answer, which a copy must give too. */
async function body(get: Client, path: string): Promise<Record<string, unknown>> {
  const res = await get(path);
  if (res.status === 404 && (res.body as { code?: unknown }).code === 'no_match') return { no_match: true };
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

const MEDIA_URL = /(https?:\/\/[^/\s]+)?\/(files|imgproc)\/[^/]+\/[0-9a-f]{16}-/g;

function normalize(value: unknown, labels: ReadonlyMap<string, string>, drop: readonly string[] = []): unknown {
  if (typeof value === 'string') return labels.get(value) ?? value.replace(MEDIA_URL, '/$2/B/');
  if (Array.isArray(value)) return value.map((v) => normalize(v, labels, drop));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !drop.includes(k))
      .map(([k, v]) => [k, normalize(v, labels, drop)]),
  );
}

export async function snapshot(target: Express | string, keys: IssuedKeys): Promise<Snapshot> {
  const get = readClient(target, keys);
  const any = (await body(get, '/objects?status=any&limit=1000')).objects as {
    id: string;
    type: string;
    slug: string;
  }[];
  const labels = new Map(any.map((o) => [o.id, `${o.type}:${o.slug}`]));
  const types = (await body(get, '/object-types')).object_types as unknown[];
  const media = ((await body(get, '/media?limit=1000')).media as { original_name: string }[]).sort((a, b) =>
    a.original_name.localeCompare(b.original_name),
  );
  const lists: Record<string, unknown> = {};
  for (const query of [
    'status=any',
    'status=published',
    'status=draft',
    'status=any&depth=1',
    'status=published&depth=2',
  ]) {
    lists[query] = normalize(await body(get, `/objects?${query}&limit=1000`), labels);
  }
  const objects: Snapshot['objects'] = {};
  for (const o of any) {
    const label = labels.get(o.id) ?? o.id;
    objects[label] = {
      object: normalize(await body(get, `/objects/${o.id}?status=any&depth=2`), labels),
      revisions: normalize(await body(get, `/objects/${o.id}/revisions?limit=1000`), labels, ['id']),
    };
  }
  return {
    types: normalize(types, labels, ['id', 'created_at', 'modified_at', 'version']) as unknown[],
    media: normalize(media, labels, ['id', 'bucket', 'location', 'name']) as unknown[],
    lists,
    objects,
  };
}
