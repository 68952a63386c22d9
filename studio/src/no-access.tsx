import { useBucket } from './bucket';
import { href, Link } from './router';

/** What a page the user's role may not use shows instead of a form the API would refuse. */
export function NoAccess() {
  const bucket = useBucket();
  return (
    <section class="no-access" aria-labelledby="no-access-title">
      <h1 id="no-access-title">You do not have access to this page</h1>
      <p>
        Your role in {bucket.slug} ({bucket.role === 'key' ? 'write key' : bucket.role}
        {bucket.draftOnly ? ', drafts only' : ''}) does not include it. Ask an admin of the Bucket if you need it.
      </p>
      <p>
        <Link to={href('b', bucket.slug, 'objects')}>Back to Objects</Link>
      </p>
    </section>
  );
}
