import { loadCredential, secretOf } from './session';

/** A non-2xx answer of the API: its `{status, message}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The whole error body, for errors that carry more than a message (a 412's `current`). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

async function errorOf(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { message?: unknown; code?: unknown } & Record<string, unknown>;
    const message = typeof body.message === 'string' ? body.message : res.statusText;
    return new ApiError(res.status, message, typeof body.code === 'string' ? body.code : undefined, body);
  } catch {
    return new ApiError(res.status, `${res.status} ${res.statusText}`);
  }
}

/** One call to this origin's API with the signed-in credential. */
export async function api<T>(
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const credential = loadCredential();
  const headers: Record<string, string> = { ...options.headers };
  if (credential) headers.Authorization = `Bearer ${secretOf(credential)}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(withQuery(path, options.query), { method, headers, body });
  if (!res.ok) throw await errorOf(res);
  const data: unknown = await res.json();
  // v3 answers an unknown path with 200 "Route not found": never a success for Studio.
  if (typeof data === 'object' && data !== null && 'message' in data && data.message === 'Route not found')
    throw new ApiError(404, 'Route not found');
  return data as T;
}

/**
 * A list read. v3 lists answer 404 when nothing matches unless asked `allow_empty`, which Studio
 * always asks: a refused request is an error in the browser's console. A 404 still reads as empty.
 */
export async function apiList<T>(path: string, query: Query, empty: T): Promise<T> {
  try {
    return await api<T>('GET', path, { query: { ...query, allow_empty: 'true' } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return empty;
    throw err;
  }
}

/** The v3 path of a Bucket's resource. */
export function v3(bucket: string, rest: string): string {
  return `/v3/buckets/${encodeURIComponent(bucket)}/${rest}`;
}

/**
 * Uploads one file with progress: fetch cannot report upload progress, XMLHttpRequest can.
 * Same origin and the same credential as every other call.
 */
export function uploadMedia(
  bucket: string,
  file: File,
  onProgress: (fraction: number) => void,
  folder?: string,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', v3(bucket, 'media'));
    const credential = loadCredential();
    if (credential) xhr.setRequestHeader('Authorization', `Bearer ${secretOf(credential)}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as { message?: string };
      } catch {
        /* not JSON: reported by status below */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body.message ?? `upload failed (${xhr.status})`));
    };
    xhr.onerror = () => {
      reject(new ApiError(0, 'network error during upload'));
    };
    const form = new FormData();
    if (folder) form.append('folder', folder);
    form.append('media', file);
    xhr.send(form);
  });
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
