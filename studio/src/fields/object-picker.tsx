import { useEffect, useState } from 'preact/hooks';
import { apiList, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import type { ContentObject } from '../types';
import { ErrorText, TextInput } from '../ui';
import { FieldGroup, type FieldProps } from './common';

type Found = Pick<ContentObject, 'id' | 'title'>;

async function findObjects(bucket: string, type: string, filter: Record<string, unknown>): Promise<Found[]> {
  const { objects } = await apiList<{ objects: Found[] }>(
    v3(bucket, 'objects'),
    { query: JSON.stringify({ type, ...filter }), status: 'any', limit: 20, props: 'id,title', useCache: 'false' },
    { objects: [] },
  );
  return objects;
}

/**
 * `object` and `objects` Metafields: the chosen Objects (reorderable when several), and a search
 * over Objects of the related type to add from.
 */
export function ObjectField(props: FieldProps) {
  const bucket = useBucket();
  const many = props.mf.type === 'objects';
  const related = props.mf.object_type ?? '';
  const ids: string[] = many
    ? Array.isArray(props.value)
      ? (props.value as string[])
      : []
    : typeof props.value === 'string' && props.value
      ? [props.value]
      : [];
  const [titles, setTitles] = useState<Record<string, string>>({});
  const [search, setSearch] = useState('');
  const [results, setResults] = useState<Found[]>([]);
  const [error, setError] = useState<string | null>(null);

  const unknown = ids.filter((id) => !(id in titles));
  useEffect(() => {
    if (unknown.length === 0) return;
    findObjects(bucket.slug, related, { id: { $in: unknown } }).then(
      (found) => {
        setTitles((t) => ({ ...t, ...Object.fromEntries(found.map((o) => [o.id, o.title])) }));
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [unknown.join(',')]);

  useEffect(() => {
    const text = search.trim();
    if (!text) {
      setResults([]);
      return;
    }
    const pattern = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    findObjects(bucket.slug, related, { title: { $regex: pattern, $options: 'i' } }).then(
      setResults,
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [search]);

  const set = (next: string[]) => {
    props.onChange(many ? next : (next[0] ?? ''));
  };
  const move = (i: number, by: number) => {
    const next = [...ids];
    const [item] = next.splice(i, 1);
    if (item !== undefined) next.splice(i + by, 0, item);
    set(next);
  };

  return (
    <FieldGroup props={props}>
      {ids.length === 0 ? <p class="muted">None chosen.</p> : null}
      <ol class="chosen">
        {ids.map((id, i) => {
          const title = titles[id] ?? id;
          return (
            <li key={id}>
              <span>{title}</span>
              {many ? (
                <>
                  <button
                    type="button"
                    disabled={i === 0}
                    onClick={() => {
                      move(i, -1);
                    }}
                    aria-label={`Move ${title} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={i === ids.length - 1}
                    onClick={() => {
                      move(i, 1);
                    }}
                    aria-label={`Move ${title} down`}
                  >
                    ↓
                  </button>
                </>
              ) : null}
              <button
                type="button"
                onClick={() => {
                  set(ids.filter((x) => x !== id));
                }}
                aria-label={`Remove ${title}`}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ol>
      <TextInput type="search" label={`Find ${related} for ${props.mf.title}`} value={search} onValue={setSearch} />
      <ErrorText message={error} />
      {results.length > 0 ? (
        <ul class="results">
          {results
            .filter((o) => !ids.includes(o.id))
            .map((o) => (
              <li key={o.id}>
                <button
                  type="button"
                  onClick={() => {
                    setTitles((t) => ({ ...t, [o.id]: o.title }));
                    set(many ? [...ids, o.id] : [o.id]);
                    setSearch('');
                  }}
                >
                  Add {o.title}
                </button>
              </li>
            ))}
        </ul>
      ) : null}
    </FieldGroup>
  );
}
