import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import { useAuthors } from '../revisions/authors';
import { Compare } from '../revisions/compare';
import type { ObjectType, Revision } from '../types';
import { ErrorText } from '../ui';
import { editValues, writeValues } from '../values';

const when = (r: Revision) => new Date(r.created_at).toLocaleString();

/**
 * An Object's history: each revision with who made it and when, any two compared field by field
 * (a revision and the latest version by default, with Show), and Restore.
 */
export function Revisions({
  objectId,
  type,
  onRestored,
}: {
  objectId: string;
  type: ObjectType;
  onRestored: () => void;
}) {
  const bucket = useBucket();
  const authorOf = useAuthors();
  const base = v3(bucket.slug, `objects/${objectId}/revisions`);
  const [revisions, setRevisions] = useState<Revision[]>([]);
  const [pick, setPick] = useState<{ from: string; to: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api<{ revisions: Revision[] }>('GET', base, { query: { sort: '-created_at', limit: 20, useCache: 'false' } }).then(
      (r) => {
        setRevisions(r.revisions);
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [objectId]);

  const restore = async (revision: Revision) => {
    try {
      // Reads render values richer than writes take them; the editor's conversion maps them back.
      const metadata = writeValues(type.metafields, editValues(type.metafields, revision.metadata ?? {}));
      await api('POST', base, {
        body: { title: revision.title, content: revision.content ?? '', metadata, status: 'draft' },
      });
      // The editor reloads (and this list with it), so the editor says it.
      onRestored();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const latest = revisions[0];
  const byId = (id: string | undefined) => revisions.find((r) => r.id === id);
  const labelOf = (r: Revision) =>
    `${when(r)}, ${r.reason ?? r.status ?? ''}${r === latest ? ' (latest)' : ''}, by ${authorOf(r.created_by)}`;
  const from = byId(pick?.from);
  const to = byId(pick?.to);
  const choose = (side: 'from' | 'to', id: string) => {
    setPick({ from: pick?.from ?? revisions[1]?.id ?? id, to: pick?.to ?? latest?.id ?? id, [side]: id });
  };
  return (
    <section class="revisions" aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">Revisions</h2>
      <ErrorText message={error} />
      <ol class="revision-list">
        {revisions.map((r) => (
          <li key={r.id}>
            <span>
              <time dateTime={r.created_at}>{when(r)}</time> · {r.reason ?? r.status} · by {authorOf(r.created_by)} ·{' '}
              {r.title}
            </span>
            <button
              type="button"
              onClick={() => {
                setPick({ from: r.id, to: latest?.id ?? r.id });
              }}
              aria-label={`Show revision of ${when(r)} (${r.reason ?? ''})`}
            >
              Show
            </button>
          </li>
        ))}
      </ol>
      {revisions.length > 1 ? (
        <div class="compare-pick">
          {(['from', 'to'] as const).map((side) => (
            <label key={side}>
              {side === 'from' ? 'Compare revision' : 'with revision'}
              <select
                value={(side === 'from' ? from : to)?.id ?? ''}
                onChange={(e) => {
                  choose(side, e.currentTarget.value);
                }}
              >
                <option value="" disabled>
                  Pick a revision
                </option>
                {revisions.map((r) => (
                  <option key={r.id} value={r.id}>
                    {labelOf(r)}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      ) : null}
      {from && to ? (
        <div class="revision" role="region" aria-label="Revision">
          <h3>
            {from.title}{' '}
            <small class="muted">
              {when(from)} by {authorOf(from.created_by)}
            </small>
          </h3>
          {from.id === to.id ? (
            <p class="muted">{from === latest ? 'This is the latest version.' : 'The same revision on both sides.'}</p>
          ) : (
            <Compare type={type} from={from} to={to} labelOf={labelOf} />
          )}
          <button type="button" class="primary" onClick={() => void restore(from)}>
            Restore
          </button>
        </div>
      ) : null}
    </section>
  );
}
