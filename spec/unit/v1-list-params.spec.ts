import assert from 'node:assert/strict';
import { v1ListParamProblems } from '../../lib/query/v1-list-params.js';

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
      '"type" is a v1 parameter this API does not take; in v3 use query={"type":"posts"}',
      '"metadata[color]" is a v1 parameter this API does not take; in v3 use query={"metadata.color":"red"}',
      '"filters[_id]" is a v1 parameter this API does not take; in v3 use query={"id":{"$in":["a","b"]}}',
      '"q" is a v1 parameter this API does not take; in v3 use query={"title":{"$regex":"hi","$options":"i"}}',
      '"hide_metafields" is a v1 parameter this API does not take; in v3 use props=id,title,slug (list the properties to return)',
      '"locale" is a v1 parameter this API does not take; in v3 use query={"locale":"fr"}',
    ]);
  });

  it('leaves v3 parameters and look-alikes alone', () => {
    assert.deepEqual(v1ListParamProblems({ query: '{}', props: 'id', types: 'x', metadata_x: '1', status: 'any' }), []);
  });
});
