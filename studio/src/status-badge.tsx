import { useEffect, useState } from 'preact/hooks';
import { api, v3 } from './api';
import { statusKind, STATUS_LABELS } from './status-label';
import type { ContentObject } from './types';

type Shown = Pick<ContentObject, 'id' | 'status' | 'modified_at' | 'published_modified_at'>;

/**
 * An Object's status as editors think of it (status-label.ts). A write answers a draft without
 * its live version, so for such an answer the badge asks the API once (status=any always
 * answers an existing Object, so no request of it fails when nothing is live).
 */
export function StatusBadge({ bucket, object }: { bucket: string; object: Shown }) {
  const [asked, setAsked] = useState<{ modified_at: string | undefined; kind: ReturnType<typeof statusKind> } | null>(
    null,
  );
  const known = statusKind(object);
  useEffect(() => {
    if (known !== null) return;
    let current = true;
    api<{ object: Shown }>('GET', v3(bucket, `objects/${encodeURIComponent(object.id)}`), {
      query: { status: 'any', props: 'status,modified_at,published_modified_at', useCache: 'false' },
    }).then(
      ({ object: read }) => {
        if (current) setAsked({ modified_at: object.modified_at, kind: statusKind(read) });
      },
      () => {
        /* the API status stays shown */
      },
    );
    return () => {
      current = false;
    };
  }, [bucket, object.id, object.modified_at, object.status, known]);
  const fresh = asked && asked.modified_at === object.modified_at ? asked.kind : null;
  const kind = known ?? fresh ?? 'draft';
  return <span class={`status ${kind}`}>{STATUS_LABELS[kind]}</span>;
}
