import { useEffect, useState } from 'preact/hooks';
import { apiList, v3 } from '../api';
import { useBucket } from '../bucket';
import { href, Link, navigate } from '../router';
import type { ContentObject, ObjectType } from '../types';

/** What a new Object starts from when it is another locale's version of an existing one. */
export interface Prefill {
  title: string;
  slug: string;
  locale: string;
}

let pending: Prefill | null = null;

/** The prefill a locale switch left for the editor it opened (read once). */
export function takePrefill(): Prefill | null {
  const p = pending;
  pending = null;
  return p;
}

/**
 * A localized Object's versions share its slug, one per locale: links to those that exist, and
 * a way to start the ones that do not.
 */
export function LocaleSwitcher({ type, object }: { type: ObjectType; object: ContentObject }) {
  const bucket = useBucket();
  const [versions, setVersions] = useState<Pick<ContentObject, 'id' | 'locale'>[]>([]);
  useEffect(() => {
    apiList<{ objects: Pick<ContentObject, 'id' | 'locale'>[] }>(
      v3(bucket.slug, 'objects'),
      {
        query: JSON.stringify({ type: type.slug, slug: object.slug }),
        status: 'any',
        props: 'id,locale',
        limit: 100,
        useCache: 'false',
      },
      { objects: [] },
    ).then(
      (r) => {
        setVersions(r.objects);
      },
      () => {
        setVersions([]);
      },
    );
  }, [object.id, object.slug]);

  return (
    <nav class="locales" aria-label="Locales">
      {(type.locales ?? []).map((locale) => {
        const version = versions.find((v) => v.locale === locale);
        if (locale === object.locale)
          return (
            <span key={locale} class="badge current" aria-current="page">
              {locale}
            </span>
          );
        if (version)
          return (
            <Link key={locale} to={href('b', bucket.slug, 'objects', type.slug, version.id)}>
              {locale}
            </Link>
          );
        return (
          <button
            key={locale}
            type="button"
            onClick={() => {
              pending = { title: object.title, slug: object.slug, locale };
              navigate(href('b', bucket.slug, 'objects', type.slug, 'new'));
            }}
          >
            Add {locale}
          </button>
        );
      })}
    </nav>
  );
}
