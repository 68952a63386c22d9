import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { certain, Ledger, type Values, type Version } from '../soak/ledger.js';
import { canon, holds } from '../soak/observed.js';
import { parseDuration } from '../soak/options.js';

/** The soak's verdicts rest on these: a wrong transition would hide a lost write or invent one. */
describe('soak ledger', () => {
  const v1: Values = { title: 'w0o1 first', body: 'b1', score: 1 };
  const published: Version = { values: v1, status: 'published', live: v1 };

  it('an edit of a published Object changes its live version too; a draft save does not', () => {
    const ledger = new Ledger();
    const e = ledger.created('w0o1', 'id1', published, 'acked')!;
    ledger.written(e, { t: 'edit', values: { title: 'w0o1 second' } }, 'acked');
    assert.deepEqual(certain(e), {
      values: { ...v1, title: 'w0o1 second' },
      status: 'published',
      live: { ...v1, title: 'w0o1 second' },
    });
    ledger.written(e, { t: 'draft', values: { score: 5 } }, 'acked');
    const s = certain(e);
    assert.ok(s && s !== 'gone');
    assert.equal(s.status, 'draft');
    assert.equal(s.values.score, 5);
    assert.equal(s.live?.score, 1);
    ledger.written(e, { t: 'publish', values: {} }, 'acked');
    assert.deepEqual(certain(e), {
      values: { ...v1, title: 'w0o1 second', score: 5 },
      status: 'published',
      live: { ...v1, title: 'w0o1 second', score: 5 },
    });
  });

  it('a write without a clear answer keeps both states and freezes the Object; a rejected one changes nothing', () => {
    const ledger = new Ledger();
    const e = ledger.created('w0o1', 'id1', published, 'acked')!;
    ledger.written(e, { t: 'edit', values: { body: 'nope' } }, 'rejected');
    assert.deepEqual(e.candidates, [published]);
    assert.equal(e.frozen, false);
    ledger.written(e, { t: 'delete', notify: false }, 'unknown');
    assert.deepEqual(e.candidates, [published, 'gone']);
    assert.equal(e.frozen, true);
    assert.equal(certain(e), null);
  });

  it('a create without an answer may or may not exist, and counts as lost only once something was acknowledged', () => {
    const ledger = new Ledger();
    const e = ledger.created('w0o2', null, published, 'unknown')!;
    assert.deepEqual(e.candidates, ['gone', published]);
    assert.equal(e.acked, false);
    assert.equal(ledger.created('w0o3', null, published, 'not-applied'), null);
  });

  it('owes one webhook event per acknowledged write, deletes only when they asked for it', () => {
    const ledger = new Ledger();
    const e = ledger.created('w0o1', 'id1', published, 'acked')!;
    ledger.written(e, { t: 'edit', values: { body: 'b2' } }, 'acked');
    ledger.written(e, { t: 'draft', values: { body: 'b3' } }, 'acked');
    ledger.written(e, { t: 'publish', values: {} }, 'acked');
    ledger.written(e, { t: 'edit', values: { body: 'b4' } }, 'rejected');
    ledger.written(e, { t: 'delete', notify: true }, 'acked');
    // A second acknowledged delete of what is gone changes nothing and owes nothing.
    ledger.written(e, { t: 'delete', notify: true }, 'acked');
    const f = ledger.created('w0o2', 'id2', published, 'acked')!;
    ledger.written(f, { t: 'delete', notify: false }, 'acked');
    ledger.created('w0o3', null, published, 'unknown');
    const m = ledger.uploaded('w0m1', 'm1', 'n1', 10, {}, 'acked')!;
    ledger.mediaDeleted(m, 'acked', true);
    assert.deepEqual(Object.fromEntries(ledger.events.counts), {
      'object.created id1': 1,
      'object.edited id1': 2,
      'object.published id1': 1,
      'object.deleted id1': 1,
      'object.created id2': 1,
      'media.created m1': 1,
      'media.deleted m1': 1,
    });
    assert.equal(ledger.events.total, 8);
  });
});

describe('soak stored-state comparison', () => {
  it('holds() compares only the fields the soak set, relations by id', () => {
    const author = new ObjectId();
    const doc = { title: 't', metadata: { body: 'b', score: 3, author, image: '' } };
    assert.ok(holds(doc, { title: 't', body: 'b', score: 3, author: author.toHexString() }));
    assert.ok(!holds(doc, { title: 't', body: 'b', score: 4 }));
    assert.ok(!holds(doc, { title: 't', body: 'b', score: 3, author: new ObjectId().toHexString() }));
  });

  it('canon() ignores key order and writes ObjectIds as hex', () => {
    const id = new ObjectId();
    assert.equal(canon({ a: 1, b: [id] }), canon({ b: [id.toHexString()], a: 1 }));
    assert.notEqual(canon({ a: 1 }), canon({ a: '1' }));
  });

  it('parseDuration() reads s, m, h, ms and bare milliseconds', () => {
    assert.equal(parseDuration('90s', 'd'), 90_000);
    assert.equal(parseDuration('10m', 'd'), 600_000);
    assert.equal(parseDuration('1h', 'd'), 3_600_000);
    assert.equal(parseDuration('250', 'd'), 250);
    assert.throws(() => parseDuration('ten minutes', 'duration'), /duration must look like/);
  });
});
