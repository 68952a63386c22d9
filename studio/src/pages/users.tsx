import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../api';
import { useBucket } from '../bucket';
import { ErrorText, formText, Notice, PageHeader } from '../ui';

interface User {
  id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  role: string;
  status?: string;
  publishing_restrictions?: string | null;
  additional_permissions?: string[] | null;
  object_types?: string[] | null;
}

const ROLES = ['admin', 'developer', 'editor', 'contributor'];
const PERMISSIONS = ['users', 'settings', 'sort_metafields'];

/**
 * A role select showing `current`. Preact does not apply `defaultValue` to a select (it would
 * show its first option, admin, and saving would grant it): each option says whether it is the
 * chosen one instead, which also leaves an unsaved choice alone when the page renders again.
 */
function RoleSelect({ label, current }: { label: string; current: string }) {
  return (
    <label>
      {label}
      <select name="role">
        {ROLES.map((r) => (
          <option key={r} value={r} selected={r === current}>
            {r}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The additional permissions, each checked as stored. */
function PermissionChoices({ name, held = [] }: { name: string; held?: string[] }) {
  return (
    <fieldset>
      <legend>Additional permissions ({name})</legend>
      <div class="choices">
        {PERMISSIONS.map((p) => (
          <label key={p} class="choice">
            <input type="checkbox" name="additional_permissions" value={p} defaultChecked={held.includes(p)} />
            {p}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The Bucket's users (admins): list, add, change role and restrictions, remove. */
export function UsersPage() {
  const bucket = useBucket();
  const base = `/v2/buckets/${encodeURIComponent(bucket.slug)}/users`;
  const [users, setUsers] = useState<User[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    api<{ users: User[] }>('GET', base).then(
      (r) => {
        setUsers(r.users);
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [reload]);

  const settingsOf = (form: FormData) => {
    const role = formText(form, 'role');
    const types = form.getAll('object_types').map(String);
    return {
      role,
      publishing_restrictions: form.get('draft_only') ? 'draft_only' : null,
      additional_permissions: form.getAll('additional_permissions').map(String),
      ...(role === 'contributor' ? { object_types: types } : {}),
    };
  };

  const run = async (method: string, path: string, body?: unknown) => {
    setError(null);
    try {
      const r = await api<{ message?: string }>(method, path, body === undefined ? {} : { body });
      setNotice(r.message ?? 'Done.');
      setReload((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const typeChoices = (name: string, chosen: string[] = []) => (
    <fieldset>
      <legend>Object types ({name})</legend>
      <div class="choices">
        {bucket.types.map((t) => (
          <label key={t.slug} class="choice">
            <input type="checkbox" name="object_types" value={t.slug} defaultChecked={chosen.includes(t.slug)} />
            {t.title}
          </label>
        ))}
      </div>
    </fieldset>
  );

  return (
    <>
      <PageHeader title="Users" />
      <ErrorText message={error} />
      <Notice message={notice} />
      <ul class="users">
        {users.map((u) => (
          <li key={u.id}>
            <form
              aria-label={`User ${u.email}`}
              onSubmit={(e) => {
                e.preventDefault();
                void run('PATCH', `${base}/${u.id}`, settingsOf(new FormData(e.currentTarget)));
              }}
            >
              <strong>{u.email}</strong> {u.status === 'pending' ? <span class="badge">pending</span> : null}
              <RoleSelect label={`Role of ${u.email}`} current={u.role} />
              <label class="choice">
                <input type="checkbox" name="draft_only" defaultChecked={u.publishing_restrictions === 'draft_only'} />
                Drafts only
              </label>
              <PermissionChoices name={u.email} held={u.additional_permissions ?? []} />
              {typeChoices(u.email, u.object_types ?? [])}
              <div class="row-actions">
                <button type="submit">Save {u.email}</button>
                <button type="button" class="danger" onClick={() => void run('DELETE', `${base}/${u.id}`)}>
                  Remove {u.email}
                </button>
              </div>
            </form>
          </li>
        ))}
      </ul>
      <h2>Add a user</h2>
      <form
        class="add-user"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          void run('POST', base, {
            email: formText(form, 'email'),
            first_name: formText(form, 'first_name'),
            last_name: formText(form, 'last_name'),
            ...settingsOf(form),
          });
        }}
      >
        <label>
          User e-mail
          <input type="email" name="email" required />
        </label>
        <label>
          First name
          <input type="text" name="first_name" required />
        </label>
        <label>
          Last name
          <input type="text" name="last_name" required />
        </label>
        <RoleSelect label="Role" current="editor" />
        <label class="choice">
          <input type="checkbox" name="draft_only" />
          Drafts only
        </label>
        <PermissionChoices name="new user" />
        {typeChoices('new user')}
        <button type="submit" class="primary">
          Add user
        </button>
      </form>
    </>
  );
}
