import assert from 'node:assert/strict';
import { requireRead, requireWrite } from '../../lib/middleware/authenticate.js';
import type { Source } from '../../lib/routes/access.js';
import type { RouteDef } from '../../lib/routes/route-table.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { everyRoute } from '../support/route-walk.js';
import { PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';

const RESOURCES = ['bucket', 'objects', 'media', 'object_types', 'webhooks', 'settings', 'users', 'extensions'];

const named = (prefix: string, def: RouteDef) => `${def.method.toUpperCase()} ${prefix}${def.path}`;
const namesBucket = (path: string) => /\/:(slug|bucket)(\/|$)/.test(path);

/** Why a route's declaration is missing or cannot be right, or null. */
function declarationProblem(def: RouteDef): string | null {
  const { access } = def as Partial<RouteDef>;
  if (access === undefined) return 'declares no access';
  if (access.kind === 'public') return null;
  if (access.kind === 'account') return namesBucket(def.path) ? 'names a Bucket but declares account access' : null;
  if (!namesBucket(def.path)) return 'declares Bucket access on a path naming no Bucket';
  if (!RESOURCES.includes(access.resource)) return `declares an unknown resource ${access.resource}`;
  // The registry adds the check its declaration names (lib/routes/route-table.ts); one in the list would run twice.
  if (def.handlers.some((h) => h === requireWrite || h === requireRead || h === access.accountCheck))
    return 'repeats its credential check in its handlers';
  if (access.resource === 'objects') {
    const { id, slug, type } = access.objects ?? {};
    const params = [id, slug, type].filter((s): s is Source => s !== undefined && 'param' in s);
    const missing = params.find((s) => 'param' in s && !def.path.includes(`:${s.param}`));
    if (missing && 'param' in missing) return `reads :${missing.param}, which its path lacks`;
    if (def.path.includes(':object_id') && !(id && 'param' in id && id.param === 'object_id'))
      return 'addresses :object_id without declaring it';
    if (def.path.includes(':object_slug') && !(slug && 'param' in slug && slug.param === 'object_slug'))
      return 'addresses :object_slug without declaring it';
  }
  return null;
}

describe('the route registry', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let h: Harness;
  before(async () => {
    h = await freshHarness();
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  it('declares the access of every route of every version, consistent with its path, and no handler list repeats its check', () => {
    const routes = everyRoute(h);
    assert.ok(routes.length > 100, `only ${String(routes.length)} routes`);
    const problems = routes
      .map(({ prefix, def }) => [named(prefix, def), declarationProblem(def)] as const)
      .filter(([, why]) => why !== null);
    assert.deepEqual(problems, []);
  });

  it('declares each method and path once per prefix', () => {
    const names = everyRoute(h).map(({ prefix, def }) => named(prefix, def));
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
    );
  });

  it('finds a missing or inconsistent declaration (the check itself can fail)', () => {
    const handler = requireWrite;
    const bare = { method: 'get', path: '/buckets/:slug/x', params: { names: [] }, handlers: [handler] };
    assert.equal(declarationProblem(bare as unknown as RouteDef), 'declares no access');
    const read = { ...bare, access: { kind: 'bucket', resource: 'objects', write: false } };
    assert.equal(declarationProblem(read as unknown as RouteDef), 'repeats its credential check in its handlers');
    const unnamed = {
      ...bare,
      handlers: [() => undefined],
      path: '/buckets/:slug/objects/:object_id',
      access: { kind: 'bucket', resource: 'objects', write: true },
    };
    assert.equal(declarationProblem(unnamed as unknown as RouteDef), 'addresses :object_id without declaring it');
  });
});
