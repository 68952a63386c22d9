import { useState } from 'preact/hooks';
import { api, messageOf } from '../api';
import { saveCredential, type Credential } from '../session';
import { ErrorText, formText } from '../ui';

interface AuthAnswer {
  token: string;
  user: { email: string; first_name?: string; last_name?: string };
}

/** Sign in with an account, or open one Bucket with its write key (Buckets without accounts). */
export function SignIn({ onSignedIn }: { onSignedIn: (c: Credential) => void }) {
  const [mode, setMode] = useState<'account' | 'key'>('account');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const done = (c: Credential) => {
    saveCredential(c);
    onSignedIn(c);
  };

  const submitAccount = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(null);
    try {
      const email = formText(form, 'email');
      const answer = await api<AuthAnswer>('POST', '/v2/authenticate', {
        body: { email, password: formText(form, 'password') },
      });
      const name = [answer.user.first_name, answer.user.last_name].filter(Boolean).join(' ');
      done({ mode: 'account', token: answer.token, email: answer.user.email, name });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const submitKey = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const bucket = formText(form, 'bucket').trim();
    const key = formText(form, 'key');
    setBusy(true);
    setError(null);
    try {
      // A write key is what the webhooks list takes; a wrong key or Bucket is refused here, not later.
      saveCredential({ mode: 'key', bucket, key });
      await api('GET', `/v3/buckets/${encodeURIComponent(bucket)}/webhooks`);
      done({ mode: 'key', bucket, key });
    } catch (err) {
      sessionStorage.clear();
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>Studio</h1>
      <div class="tabs" role="group" aria-label="How to sign in">
        <button
          type="button"
          aria-pressed={mode === 'account'}
          onClick={() => {
            setMode('account');
          }}
        >
          Account
        </button>
        <button
          type="button"
          aria-pressed={mode === 'key'}
          onClick={() => {
            setMode('key');
          }}
        >
          Bucket key
        </button>
      </div>
      {mode === 'account' ? (
        <form onSubmit={(e) => void submitAccount(e)} aria-label="Sign in with an account">
          <label>
            E-mail
            <input name="email" type="email" autocomplete="username" required />
          </label>
          <label>
            Password
            <input name="password" type="password" autocomplete="current-password" required />
          </label>
          <button type="submit" class="primary" disabled={busy}>
            Sign in
          </button>
        </form>
      ) : (
        <form onSubmit={(e) => void submitKey(e)} aria-label="Open a Bucket with its write key">
          <label>
            Bucket
            <input name="bucket" type="text" autocomplete="off" required />
          </label>
          <label>
            Write key
            <input name="key" type="password" autocomplete="off" required />
          </label>
          <button type="submit" class="primary" disabled={busy}>
            Open Bucket
          </button>
        </form>
      )}
      <ErrorText message={error} />
    </main>
  );
}
