import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from './api';
import { BucketContext, can, loadTypes, placeIn, typesIn, type BucketInfo } from './bucket';
import { href, Link, useLocation } from './router';
import type { Credential } from './session';
import { ErrorText, Loading } from './ui';
import { BucketRoutes } from './routes';
import { openShortcuts } from './shortcuts-help';

/** One Bucket's frame: navigation on the side (on top on a phone), the page beside it. */
export function BucketShell({
  slug,
  credential,
  signOut,
}: {
  slug: string;
  credential: Credential;
  signOut: () => void;
}) {
  const [info, setInfo] = useState<Omit<BucketInfo, 'reloadTypes'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { segments } = useLocation();

  const load = useCallback(async () => {
    try {
      const [place, all] = await Promise.all([placeIn(slug, credential), loadTypes(slug)]);
      setInfo({ slug, role: place.role, draftOnly: place.draftOnly, types: typesIn(place, all) });
    } catch (err) {
      setError(messageOf(err));
    }
  }, [slug, credential]);

  useEffect(() => {
    void load();
  }, [load]);

  const section = segments[2] ?? 'objects';
  const current = (name: string) => (section === name ? 'page' : undefined);
  const bucket = info ? { ...info, reloadTypes: load } : null;

  return (
    <div class="layout">
      <header class="topbar">
        {credential.mode === 'account' ? (
          <Link to={href()} class="brand">
            Studio
          </Link>
        ) : (
          <span class="brand">Studio</span>
        )}
        <span class="bucket-name">{slug}</span>
        {info ? <span class="badge">{info.role === 'key' ? 'write key' : info.role}</span> : null}
        <span class="spacer" />
        <button type="button" onClick={openShortcuts}>
          Keyboard shortcuts
        </button>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav class="sidebar" aria-label="Sections">
        <ul>
          <li>
            <Link to={href('b', slug, 'objects')} aria-current={current('objects')}>
              Objects
            </Link>
            {bucket && bucket.types.length > 0 ? (
              <ul aria-label="Object types">
                {bucket.types.map((t) => (
                  <li key={t.slug}>
                    <Link
                      to={href('b', slug, 'objects', t.slug)}
                      aria-current={section === 'objects' && segments[3] === t.slug ? 'page' : undefined}
                    >
                      {t.title}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
          <li>
            <Link to={href('b', slug, 'types')} aria-current={current('types')}>
              Object types
            </Link>
          </li>
          <li>
            <Link to={href('b', slug, 'media')} aria-current={current('media')}>
              Media
            </Link>
          </li>
          {bucket && can.webhooks(bucket) ? (
            <li>
              <Link to={href('b', slug, 'webhooks')} aria-current={current('webhooks')}>
                Webhooks
              </Link>
            </li>
          ) : null}
          {bucket && can.users(bucket) ? (
            <li>
              <Link to={href('b', slug, 'users')} aria-current={current('users')}>
                Users
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>
      <main class="content" id="main">
        <ErrorText message={error} />
        {bucket ? (
          <BucketContext.Provider value={bucket}>
            <BucketRoutes section={section} rest={segments.slice(3)} />
          </BucketContext.Provider>
        ) : error ? null : (
          <Loading />
        )}
      </main>
    </div>
  );
}
