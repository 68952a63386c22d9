import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { feedDoc, type FeedEvent } from '../../lib/events/feed-collection.js';

const at = new Date('2026-01-02T03:04:05.678Z');

function event(type: FeedEvent['type'], status: string): FeedEvent {
  return {
    id: `abc:${String(at.getTime())}:${type}`,
    type,
    bucket: 'blog',
    bucketId: new ObjectId(),
    objectType: 'posts',
    data: { id: 'abc', slug: 'post', type: 'posts', status, title: 'Secret plans' },
  };
}

function bodyData(body: string | null | undefined): unknown {
  return typeof body === 'string' ? (JSON.parse(body) as { data: unknown }).data : body;
}

describe('feed documents: what a read-key stream gets of an event', () => {
  it("a published Object's event: the read key gets the same body, rendered once", () => {
    const doc = feedDoc(event('object.edited', 'published'), at, 60_000);
    assert.equal(doc.read_body, doc.body);
    assert.deepEqual(bodyData(doc.body), {
      id: 'abc',
      slug: 'post',
      type: 'posts',
      status: 'published',
      title: 'Secret plans',
    });
  });

  it("a draft's event is not for the read key (null)", () => {
    const doc = feedDoc(event('object.edited', 'draft'), at, 60_000);
    assert.equal(doc.read_body, null);
    assert.equal((bodyData(doc.body) as { title: string }).title, 'Secret plans');
  });

  it('an unpublish carries only the ids for the read key, the whole Object for the write key', () => {
    const doc = feedDoc(event('object.unpublished', 'draft'), at, 60_000);
    const read = bodyData(doc.read_body) as Record<string, unknown>;
    assert.equal(read.title, undefined);
    assert.equal(read.id, 'abc');
    assert.equal((bodyData(doc.body) as { title: string }).title, 'Secret plans');
  });
});
