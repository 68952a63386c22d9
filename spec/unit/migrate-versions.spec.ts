import assert from 'node:assert/strict';
import type { ObjectRecord, RevisionRecord } from '../../lib/migrate/bundle-format.js';
import type { ObjectWithHistory } from '../../lib/migrate/history.js';
import { planObject } from '../../lib/migrate/versions.js';

const ID = '5f1b2c3d4e5f6a7b8c9d0e1f';
const t = (minute: number) => `2024-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const identity = { object: (id: string) => id, media: (name: string) => `new-${name}` };

function plan(record: ObjectRecord, revisions: RevisionRecord[] = []) {
  const item: ObjectWithHistory = {
    record,
    where: 'objects.ndjson line 1',
    revisions: revisions.map((r, i) => ({ record: r, where: `revisions.ndjson line ${i + 1}` })),
  };
  return planObject(item, ID, [], identity, new Date(t(59)), () => undefined);
}

const brief = (p: ReturnType<typeof plan>) =>
  p.versions.map((v) => [v.at.toISOString(), v.reason, v.body.status, v.body.title, v.withdraw]);

describe('migration: the versions that rebuild an Object', () => {
  it('a published Object without history: one version, its create', () => {
    const p = plan({
      id: 'x',
      type: 'posts',
      created_at: t(1),
      latest: { title: 'A', status: 'published', modified_at: t(2) },
    });
    assert.deepEqual(brief(p), [[t(2), 'create', 'published', 'A', false]]);
    assert.equal(p.created_at.toISOString(), t(1));
  });

  it('a draft over a live version: the live one first, then the draft, each whole', () => {
    const p = plan({
      id: 'x',
      type: 'posts',
      latest: { title: 'Draft', status: 'draft', modified_at: t(5), thumbnail: 'b.png' },
      live: { title: 'Live', status: 'published', modified_at: t(3), thumbnail: 'a.png', published_at: t(3) },
    });
    assert.deepEqual(brief(p), [
      [t(3), 'create', 'published', 'Live', false],
      [t(5), 'edit', 'draft', 'Draft', false],
    ]);
    assert.deepEqual(
      p.versions.map((v) => v.body.thumbnail),
      ['new-a.png', 'new-b.png'],
    );
  });

  it('follows the history, writing the live and latest versions whole where it reaches them', () => {
    const rev = (
      minute: number,
      reason: RevisionRecord['reason'],
      status: RevisionRecord['status'],
      title: string,
    ) => ({
      id: `r${minute}`,
      object: 'x',
      created_at: t(minute),
      reason,
      status,
      title,
      metadata: { n: minute },
    });
    const p = plan(
      {
        id: 'x',
        type: 'posts',
        latest: { title: 'Latest', status: 'draft', modified_at: t(9), content: 'latest body' },
        live: { title: 'Live', status: 'published', modified_at: t(6), content: 'live body' },
      },
      [rev(1, 'create', 'published', 'One'), rev(6, 'publish', 'published', 'Six'), rev(9, 'draft', 'draft', 'Nine')],
    );
    assert.deepEqual(brief(p), [
      [t(1), 'create', 'published', 'One', false],
      [t(6), 'publish', 'published', 'Live', false],
      [t(9), 'draft', 'draft', 'Latest', false],
    ]);
    assert.deepEqual(
      p.versions.map((v) => v.body.content),
      ['latest body', 'live body', 'latest body'],
    );
    assert.deepEqual(
      p.versions.map((v) => v.where),
      ['revisions.ndjson line 1', 'objects.ndjson line 1 (live version)', 'objects.ndjson line 1 (latest version)'],
    );
  });

  it('takes the live version down at the end of a history that left none, and on a scheduled unpublish', () => {
    const p = plan({ id: 'x', type: 'posts', latest: { title: 'B', status: 'draft', modified_at: t(4) }, live: null }, [
      { id: 'r1', object: 'x', created_at: t(1), reason: 'create', status: 'published', title: 'A' },
      { id: 'r2', object: 'x', created_at: t(2), reason: 'scheduled-unpublish', status: 'draft', title: 'A' },
    ]);
    assert.deepEqual(brief(p), [
      [t(1), 'create', 'published', 'A', false],
      [t(2), 'scheduled-unpublish', 'draft', 'A', true],
      [t(4), 'edit', 'draft', 'B', true],
    ]);
  });

  it('makes times strictly increase where the bundle gives none (a Block), so reruns can tell versions apart', () => {
    const p = plan({
      id: 'x',
      type: 'posts',
      latest: { title: 'Draft', status: 'draft' },
      live: { title: 'Live', status: 'published' },
    });
    const [first, second] = p.versions;
    assert.ok(first && second);
    assert.ok(second.at.getTime() > first.at.getTime());
    assert.equal(first.at.toISOString(), t(59));
  });
});
