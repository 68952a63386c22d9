import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import type { ObjectType, Revision } from '../types';
import { ErrorText } from '../ui';
import { editValues, writeValues } from '../values';

interface Change {
  field: string;
  before: string;
  after: string;
}

function text(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** What differs between a revision and the current version, field by field. */
function changes(type: ObjectType, revision: Revision, current: Revision): Change[] {
  const rows: Change[] = [];
  const compare = (field: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after))
      rows.push({ field, before: text(before), after: text(after) });
  };
  compare('Title', revision.title, current.title);
  compare('Content', revision.content, current.content);
  for (const mf of type.metafields) compare(mf.title, revision.metadata?.[mf.key], current.metadata?.[mf.key]);
  return rows;
}

/** An Object's history: each revision, its content, its difference from now, and Restore. */
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
  const base = v3(bucket.slug, `objects/${objectId}/revisions`);
  const [revisions, setRevisions] = useState<Revision[]>([]);
  const [open, setOpen] = useState<Revision | null>(null);
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

  const show = async (id: string) => {
    try {
      const { revision } = await api<{ revision: Revision }>('GET', `${base}/${id}`);
      setOpen(revision);
    } catch (err) {
      setError(messageOf(err));
    }
  };

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
  return (
    <section class="revisions" aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">Revisions</h2>
      <ErrorText message={error} />
      <ol>
        {revisions.map((r) => (
          <li key={r.id}>
            <span>
              {new Date(r.created_at).toLocaleString()} · {r.reason ?? r.status} · {r.title}
            </span>
            <button
              type="button"
              onClick={() => void show(r.id)}
              aria-label={`Show revision of ${new Date(r.created_at).toLocaleString()} (${r.reason ?? ''})`}
            >
              Show
            </button>
          </li>
        ))}
      </ol>
      {open ? (
        <div class="revision" role="region" aria-label="Revision">
          <h3>
            {open.title} <small class="muted">{new Date(open.created_at).toLocaleString()}</small>
          </h3>
          {latest && latest.id !== open.id ? (
            <table class="diff">
              <caption>Differences from the latest version</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">This revision</th>
                  <th scope="col">Latest</th>
                </tr>
              </thead>
              <tbody>
                {changes(type, open, latest).map((c) => (
                  <tr key={c.field}>
                    <th scope="row">{c.field}</th>
                    <td class="before">{c.before}</td>
                    <td class="after">{c.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">This is the latest version.</p>
          )}
          <pre class="revision-content">{JSON.stringify(open.metadata ?? {}, null, 2)}</pre>
          <button type="button" class="primary" onClick={() => void restore(open)}>
            Restore
          </button>
        </div>
      ) : null}
    </section>
  );
}
