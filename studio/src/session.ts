// The credential lives in sessionStorage only: never a cookie (nothing to forge cross-site) and
// never the URL (nothing to leak through history or referrers). Closing the tab forgets it.

export type Credential =
  { mode: 'account'; token: string; email: string; name: string } | { mode: 'key'; bucket: string; key: string };

const STORAGE_KEY = 'studio.credential';

export function loadCredential(): Credential | null {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Credential> | null;
    return parsed?.mode === 'account' || parsed?.mode === 'key' ? (parsed as Credential) : null;
  } catch {
    return null;
  }
}

export function saveCredential(credential: Credential): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credential));
}

export function forgetCredential(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

export function secretOf(credential: Credential): string {
  return credential.mode === 'account' ? credential.token : credential.key;
}
