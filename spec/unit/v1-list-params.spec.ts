import assert from 'node:assert/strict';
import { v1ListParamProblems } from '../../lib/query/v1-list-params.js';

const refused = (name: string, v3: string) => `"${name}" is a v1 parameter this API does not take; in v3 use ${v3}`;

describe('v1ListParamProblems', () => {
  it('names each v1-only parameter with its v3 form, in the order sent', () => {
    const problems = v1ListParamProblems({
      type: 'posts',
      'metadata[color]': 'red',
      'filters[_id]': 'a,b',
      q: 'hi',
      hide_metafields: 'true',
      locale: 'fr',
    });
    assert.deepEqual(problems, [
      refused('type', 'query={"type":"posts"}'),
      refused('metadata[color]', 'query={"metadata.color":"red"}'),
      refused('filters[_id]', 'query={"id":{"$in":["a","b"]}}'),
      refused(
        'q',
        'query={"$or":[{"title":{"$regex":"hi","$options":"i"}},{"content":{"$regex":"hi","$options":"i"}}]}',
      ),
      refused('hide_metafields', 'props=id,title,slug (list the properties to return)'),
      refused('locale', 'query={"locale":"fr"}'),
    ]);
  });

  it('advises a search that matches the text literally, and ids as $in', () => {
    assert.deepEqual(v1ListParamProblems({ q: 'a.b(' }), [
      refused(
        'q',
        String.raw`query={"$or":[{"title":{"$regex":"a\\.b\\(","$options":"i"}},{"content":{"$regex":"a\\.b\\(","$options":"i"}}]}`,
      ),
    ]);
    assert.deepEqual(v1ListParamProblems({ 'metadata[tags]': 'x,y', 'filters[_id]': 'z' }), [
      refused('metadata[tags]', 'query={"metadata.tags":{"$in":["x","y"]}}'),
      refused('filters[_id]', 'query={"id":"z"}'),
    ]);
  });

  it('refuses the other v1 filters and the deprecated Metafield ones', () => {
    const problems = v1ListParamProblems({
      'filters[connected_to]': 'abc',
      created_by: 'u1',
      metafield_key: 'color',
      metafield_value: 'red',
      metafield_object_id: 'o1',
    });
    assert.deepEqual(
      problems.map((p) => p.split(' ')[0]),
      ['"filters[connected_to]"', '"created_by"', '"metafield_key"', '"metafield_value"', '"metafield_object_id"'],
    );
    assert.match(problems[1] ?? '', /query=\{"created_by":"u1"\}/);
  });

  it('bounds the echoed value', () => {
    const [problem = ''] = v1ListParamProblems({ type: 'x'.repeat(10_000) });
    assert.ok(problem.length < 200, problem);
  });

  it('leaves v3 parameters and look-alikes alone', () => {
    assert.deepEqual(v1ListParamProblems({ query: '{}', props: 'id', types: 'x', metadata_x: '1', status: 'any' }), []);
  });
});
