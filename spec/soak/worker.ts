import { contentionOp } from './contention-ops.js';
import { fileOp, imgprocOp, mediaDeleteOp, SCRATCH_CAP, uploadOp } from './media-ops.js';
import { batchOp, createOp, deleteOp, getOp, updateOp } from './object-ops.js';
import { listOp } from './read-ops.js';
import type { WorkerState } from './worker-state.js';

/**
 * The mix, in relative weights: about half reads. Every write also drives a webhook delivery
 * (setup subscribes a receiver to every event; half the deletes ask for theirs).
 */
export const MIX = {
  list: 22,
  get: 14,
  create: 11,
  edit: 10,
  publish: 6,
  draft: 5,
  delete: 5,
  batch: 5,
  upload: 4,
  imgproc: 8,
  file: 3,
  'media-delete': 2,
  contention: 2,
} as const;

export type Kind = keyof typeof MIX;

/** Below this many Objects a worker creates before anything else needs one. */
const MIN_OWNED = 3;

function choose(w: WorkerState): Kind {
  const kind = w.rand.weighted(MIX);
  if (w.owned.length < MIN_OWNED && kind !== 'list' && kind !== 'upload') return 'create';
  if (kind === 'create' && w.owned.length >= w.cap) return 'delete';
  if (kind === 'delete' && w.owned.length < w.cap / 2 && w.rand.chance(0.5)) return 'create';
  if (kind === 'media-delete' && w.scratch.length === 0) return 'upload';
  if (kind === 'upload' && w.scratch.length >= SCRATCH_CAP) return 'media-delete';
  if (kind === 'contention' && w.contendedId === undefined) return 'edit';
  return kind;
}

async function runOne(w: WorkerState, kind: Kind): Promise<void> {
  switch (kind) {
    case 'list':
      return listOp(w);
    case 'get':
      return getOp(w);
    case 'create':
      return createOp(w);
    case 'edit':
    case 'publish':
    case 'draft':
      return updateOp(w, kind);
    case 'delete':
      return deleteOp(w);
    case 'batch':
      return batchOp(w);
    case 'upload':
      return uploadOp(w);
    case 'imgproc':
      return imgprocOp(w);
    case 'file':
      return fileOp(w);
    case 'media-delete':
      return mediaDeleteOp(w);
    case 'contention':
      return contentionOp(w);
  }
}

/** Issues requests back to back until `done()` says stop; a request in flight is always finished. */
export async function runWorker(w: WorkerState, done: () => boolean): Promise<void> {
  while (!done()) await runOne(w, choose(w));
}
