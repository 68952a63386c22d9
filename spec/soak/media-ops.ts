import { fateOf } from './http.js';
import { BUCKET } from './setup.js';
import { BASE, nextToken, type WorkerState } from './worker-state.js';

/** Scratch media a worker keeps at most before it deletes some. */
export const SCRATCH_CAP = 10;

/** Widths and formats drawn for processed images: 21 variants, one more than are kept per image. */
const WIDTHS = [32, 64, 96, 128, 200, 256, 320];
const FORMATS = ['webp', 'jpg', 'png'];

export async function uploadOp(w: WorkerState): Promise<void> {
  const token = nextToken(w, 'm');
  const image = w.rand.pick(w.fixture.images);
  if (!image) return;
  const attachable = w.attachable.length < 5 || w.rand.chance(0.6);
  const metadata = { token, worker: w.n, attachable };
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  form.append('media', new Blob([new Uint8Array(image)], { type: 'image/png' }), `${token}.png`);
  const a = await w.client.request('upload', { method: 'POST', path: `${BASE}/media`, form });
  const media = a.sent === true && a.status === 200 ? (a.body as { media: { id: string; name: string } }).media : null;
  const entry = w.ledger.uploaded(token, media?.id ?? null, media?.name ?? null, image.length, metadata, fateOf(a));
  if (!entry || !media) return;
  (attachable ? w.attachable : w.scratch).push(entry);
}

export async function mediaDeleteOp(w: WorkerState): Promise<void> {
  const entry = w.scratch.shift();
  if (!entry?.id) return;
  const notify = w.rand.chance(0.5);
  const path = `${BASE}/media/${entry.id}${notify ? '?trigger_webhook=true' : ''}`;
  const a = await w.client.request('media-delete', { method: 'DELETE', path });
  w.ledger.mediaDeleted(entry, fateOf(a), notify);
}

/** A processed image of an attachable media item: some variants are stored, the rest made each time. */
export async function imgprocOp(w: WorkerState): Promise<void> {
  const entry = w.rand.pick(w.attachable);
  if (!entry?.name) return uploadOp(w);
  const q = new URLSearchParams({ w: String(w.rand.pick(WIDTHS)), fm: w.rand.pick(FORMATS) ?? 'webp' });
  await w.client.request('imgproc', { path: `/imgproc/${BUCKET}/${entry.name}?${q}`, binary: true });
}

/** The original file: its length must be what was uploaded. */
export async function fileOp(w: WorkerState): Promise<void> {
  const entry = w.rand.pick(w.attachable);
  if (!entry?.name) return uploadOp(w);
  const a = await w.client.request('file', { path: `/files/${BUCKET}/${entry.name}`, binary: true });
  if (a.sent === true && a.status === 200 && a.bytes !== entry.size) {
    w.client.stats.incident('file', 'wrong length', `${entry.name}: ${a.bytes} bytes, uploaded ${entry.size}`);
  }
}
