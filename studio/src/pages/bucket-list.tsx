import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../api';
import { href, Link } from '../router';
import type { Credential } from '../session';
import type { Role } from '../types';
import { ErrorText, Loading } from '../ui';

/** An account's Buckets, each a link named by its slug, with the account's role in it. */
export function BucketList({ credential, signOut }: { credential: Credential; signOut: () => void }) {
  const [buckets, setBuckets] = useState<{ slug: string; role: Role }[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ buckets: { slug: string; role: Role }[] }>('GET', '/v2/buckets').then(
      (b) => {
        setBuckets(b.buckets);
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, []);
  return (
    <div class="layout single">
      <header class="topbar">
        <span class="brand">Studio</span>
        <span class="who">{credential.mode === 'account' ? credential.email : ''}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        <h1>Buckets</h1>
        <ErrorText message={error} />
        {buckets === null && !error ? <Loading /> : null}
        {buckets?.length === 0 ? <p>This account is not a user of any Bucket yet.</p> : null}
        <ul class="cards">
          {buckets?.map((b) => (
            <li key={b.slug}>
              <Link to={href('b', b.slug, 'objects')}>{b.slug}</Link> <span class="badge">{b.role}</span>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
