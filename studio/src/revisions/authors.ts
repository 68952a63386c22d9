import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useBucket } from '../bucket';
import { loadCredential } from '../session';

interface Person {
  id: string;
  email: string;
  first_name?: string;
  last_name?: string;
}

function nameOf(p: Person): string {
  const name = [p.first_name, p.last_name].filter(Boolean).join(' ');
  return name === '' ? p.email : `${name} (${p.email})`;
}

/**
 * Who each revision's author is, as far as Studio can know it: an admin reads the Bucket's users;
 * anyone signed in knows themselves. Others show as an account id. Revisions name accounts by id.
 */
export function useAuthors(): (id: string | null | undefined) => string {
  const bucket = useBucket();
  const [names, setNames] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    if (loadCredential()?.mode !== 'account') return;
    const known = new Map<string, string>();
    const add = (people: Person[]) => {
      for (const p of people) known.set(p.id, nameOf(p));
      setNames(new Map(known));
    };
    // Either may be refused (a non-admin may not list users): the names are a courtesy.
    void api<{ user: Person }>('GET', '/v2/user').then(
      (r) => {
        add([r.user]);
      },
      () => undefined,
    );
    if (bucket.role === 'admin') {
      void api<{ users: Person[] }>('GET', `/v2/buckets/${encodeURIComponent(bucket.slug)}/users`).then(
        (r) => {
          add(r.users);
        },
        () => undefined,
      );
    }
  }, [bucket.slug, bucket.role]);
  return (id) => {
    if (!id) return 'a Bucket key';
    return names.get(id) ?? `account ${id}`;
  };
}
