import { BASE, type WorkerState } from './worker-state.js';

/**
 * List reads the way clients make them: filters on metadata, relations and ids, sorts, props,
 * depth 0–2, from the cache and around it. A filter that matches nothing answers 404 (no_match).
 */
function listQuery(w: WorkerState): Record<string, string> {
  const r = w.rand;
  switch (r.int(0, 5)) {
    case 0: {
      const from = r.int(0, 95_000);
      return {
        query: JSON.stringify({ type: 'posts', 'metadata.score': { $gte: from, $lt: from + 5000 } }),
        sort: '-metadata.score',
        limit: '20',
        props: 'id,title,metadata.score',
      };
    }
    case 1:
      return {
        query: JSON.stringify({ type: 'posts', 'metadata.author': r.pick(w.fixture.authors) ?? '' }),
        depth: '1',
        limit: '10',
      };
    case 2:
      return {
        query: JSON.stringify({ type: 'posts', title: { $regex: `^w${w.n}o`, $options: '' } }),
        status: 'any',
        sort: '-modified_at',
        limit: '25',
        useCache: 'false',
      };
    case 3: {
      const ids = w.owned.slice(-5).flatMap((e) => (e.id ? [e.id] : []));
      return {
        query: JSON.stringify({ id: { $in: ids.length > 0 ? ids : w.fixture.authors.slice(0, 3) } }),
        depth: '2',
        status: 'any',
      };
    }
    default:
      return {
        query: JSON.stringify({
          type: 'posts',
          $or: [
            { 'metadata.score': { $lt: r.int(0, 20_000) } },
            { 'metadata.body': { $regex: 'magna', $options: 'i' } },
          ],
        }),
        sort: r.chance(0.5) ? '-created_at' : 'metadata.score',
        limit: String(r.int(1, 50)),
        skip: String(r.int(0, 20)),
      };
  }
}

export async function listOp(w: WorkerState): Promise<void> {
  const params = new URLSearchParams({ read_key: w.fixture.readKey, ...listQuery(w) });
  await w.client.request('list', { path: `${BASE}/objects?${params}`, expect: [200, 404] });
}
