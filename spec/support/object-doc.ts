import { ObjectId } from 'mongodb';
import type { ObjectDoc } from '../../lib/db/collections.js';

/** A stored Object for pure tests; `refs` are the ObjectIds found anywhere in its metadata. */
export function objectDocFixture(title: string, metadata: Record<string, unknown> = {}): ObjectDoc {
  const refs: ObjectId[] = [];
  const walk = (v: unknown): void => {
    if (v instanceof ObjectId) refs.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(metadata);
  const now = new Date(0);
  return {
    _id: new ObjectId(),
    bucket_id: new ObjectId(),
    type: 't',
    slug: title.toLowerCase(),
    title,
    content: '',
    locale: null,
    thumbnail: null,
    status: 'published',
    metadata,
    refs,
    order: 0,
    created_at: now,
    modified_at: now,
    published_at: now,
    created_by: null,
    modified_by: null,
  };
}
