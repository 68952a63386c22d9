import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import { href, Link, navigate } from '../router';
import { ErrorText, Notice, PageHeader } from '../ui';

const EVENTS = [
  'object.created',
  'object.edited',
  'object.published',
  'object.unpublished',
  'object.deleted',
  'object_type.created',
  'object_type.edited',
  'object_type.deleted',
  'media.created',
  'media.edited',
  'media.deleted',
];

interface Webhook {
  id: string;
  title: string;
  endpoint: string;
  events: string[];
  enabled: boolean;
  disabled_reason?: string | null;
}

interface Delivery {
  id: string;
  status: string;
  event?: { type?: string };
  type?: string;
  created_at: string;
  attempts?: number | unknown[];
}

/** Webhooks: the list, a form to create or edit one, and one's delivery log with redeliver. */
export function WebhooksPage({ id }: { id: string | null }) {
  const bucket = useBucket();
  const [hooks, setHooks] = useState<Webhook[]>([]);
  const [edit, setEdit] = useState<Partial<Webhook> | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    api<{ webhooks: Webhook[] }>('GET', v3(bucket.slug, 'webhooks')).then(
      (r) => {
        setHooks(r.webhooks);
        if (id) setEdit(r.webhooks.find((h) => h.id === id) ?? null);
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
    if (id)
      api<{ deliveries: Delivery[] }>('GET', v3(bucket.slug, `webhooks/${id}/deliveries`), {
        query: { limit: 50 },
      }).then(
        (r) => {
          setDeliveries(r.deliveries);
        },
        (err: unknown) => {
          setError(messageOf(err));
        },
      );
  }, [id, reload]);

  const save = async (e: Event) => {
    e.preventDefault();
    if (!edit) return;
    setError(null);
    try {
      const body = {
        title: edit.title,
        endpoint: edit.endpoint,
        events: edit.events ?? [],
        ...(edit.id ? { enabled: edit.enabled } : {}),
      };
      const { webhook } = await api<{ webhook: Webhook & { secret?: string } }>(
        edit.id ? 'PATCH' : 'POST',
        v3(bucket.slug, edit.id ? `webhooks/${edit.id}` : 'webhooks'),
        { body },
      );
      setNotice(webhook.secret ? `Saved. Signing secret (shown once): ${webhook.secret}` : 'Saved.');
      navigate(href('b', bucket.slug, 'webhooks', webhook.id), true);
      setReload((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const redeliver = async (d: Delivery) => {
    try {
      await api('POST', v3(bucket.slug, `webhooks/${id ?? ''}/deliveries/${d.id}/redeliver`));
      setNotice('Queued again.');
      setReload((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const remove = async () => {
    if (!edit?.id || !confirm(`Delete the webhook ${edit.title ?? ''}?`)) return;
    try {
      await api('DELETE', v3(bucket.slug, `webhooks/${edit.id}`));
      navigate(href('b', bucket.slug, 'webhooks'), true);
      setEdit(null);
      setReload((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <>
      <PageHeader title="Webhooks">
        <button
          type="button"
          class="primary"
          onClick={() => {
            setEdit({ title: '', endpoint: '', events: [] });
          }}
        >
          New webhook
        </button>
      </PageHeader>
      <ErrorText message={error} />
      <Notice message={notice} />
      <ul class="cards">
        {hooks.map((h) => (
          <li key={h.id}>
            <Link to={href('b', bucket.slug, 'webhooks', h.id)}>{h.title || h.endpoint}</Link>{' '}
            <span class="badge">
              {h.enabled ? 'enabled' : `disabled${h.disabled_reason ? `: ${h.disabled_reason}` : ''}`}
            </span>
          </li>
        ))}
      </ul>
      {edit ? (
        <form class="webhook-form" onSubmit={(e) => void save(e)} aria-label="Webhook">
          <label>
            Webhook title
            <input
              type="text"
              value={edit.title ?? ''}
              onInput={(e) => {
                setEdit({ ...edit, title: e.currentTarget.value });
              }}
            />
          </label>
          <label>
            Endpoint
            <input
              type="url"
              required
              value={edit.endpoint ?? ''}
              onInput={(e) => {
                setEdit({ ...edit, endpoint: e.currentTarget.value });
              }}
            />
          </label>
          <fieldset>
            <legend>Events</legend>
            <div class="choices">
              {EVENTS.map((ev) => (
                <label key={ev} class="choice">
                  <input
                    type="checkbox"
                    checked={edit.events?.includes(ev) ?? false}
                    onChange={(e) => {
                      const events = edit.events ?? [];
                      setEdit({
                        ...edit,
                        events: e.currentTarget.checked ? [...events, ev] : events.filter((x) => x !== ev),
                      });
                    }}
                  />
                  {ev}
                </label>
              ))}
            </div>
          </fieldset>
          {edit.id ? (
            <label class="choice">
              <input
                type="checkbox"
                checked={edit.enabled === true}
                onChange={(e) => {
                  setEdit({ ...edit, enabled: e.currentTarget.checked });
                }}
              />
              Enabled
            </label>
          ) : null}
          <div class="form-actions">
            <button type="submit" class="primary">
              Save webhook
            </button>
            {edit.id ? (
              <button type="button" class="danger" onClick={() => void remove()}>
                Delete webhook
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
      {id ? (
        <section aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading">Deliveries</h2>
          {deliveries.length === 0 ? <p class="muted">No deliveries yet.</p> : null}
          <ul class="deliveries">
            {deliveries.map((d) => (
              <li key={d.id}>
                <span>{new Date(d.created_at).toLocaleString()}</span> <span>{d.type ?? d.event?.type ?? ''}</span>{' '}
                <span class="badge">{d.status}</span>
                <button type="button" onClick={() => void redeliver(d)} aria-label={`Redeliver ${d.id}`}>
                  Redeliver
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
