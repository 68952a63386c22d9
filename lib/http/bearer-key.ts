import type { Request } from 'express';

/** `Authorization: Bearer <key>`, or the bare key, which the spec also accepts. */
export function bearerKey(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (m?.[1] ?? header).trim();
}
