import type { Db, ObjectId } from 'mongodb';

/** Files removed per round trip; one deleteMany per collection covers the whole batch. */
const BATCH = 500;
/** How long the first removal waits for others, so a burst of aborted uploads becomes one batch. */
const GATHER_MS = 25;

/**
 * Removes GridFS files (chunks and files document) off the request path, in batches, one batch
 * at a time. A hundred uploads dropped at once used to send a hundred concurrent chunk deletes,
 * which stalled every other query on the engine; here they become one deleteMany per collection,
 * and a request that refuses an upload answers without waiting for any of it.
 *
 * A removal lost to a crash or a database failure leaves at worst chunks without a files
 * document, which the start-up sweep (orphan-sweep.ts) collects.
 */
export class BackgroundRemover {
  private readonly pending = new Map<string, ObjectId[]>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: (msg: string) => void,
  ) {}

  /** Queues files of one GridFS bucket for removal and returns at once. */
  remove(bucketName: string, ids: readonly ObjectId[]): void {
    if (ids.length === 0) return;
    const list = this.pending.get(bucketName) ?? [];
    list.push(...ids);
    this.pending.set(bucketName, list);
    this.start();
  }

  /** Resolves once everything queued so far is removed (or has failed and been logged). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private start(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.pending.size > 0) this.start();
    });
  }

  private async drain(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
    for (;;) {
      const next = this.pending.entries().next();
      if (next.done) return;
      const [bucketName, ids] = next.value;
      const batch = ids.splice(0, BATCH);
      if (ids.length === 0) this.pending.delete(bucketName);
      // Files documents first: if the chunk delete then fails, what is left is orphan chunks,
      // which the sweep recognises, never a files document pointing at missing chunks.
      try {
        await this.db.collection(`${bucketName}.files`).deleteMany({ _id: { $in: batch } });
        await this.db.collection(`${bucketName}.chunks`).deleteMany({ files_id: { $in: batch } });
      } catch (err) {
        this.log(
          `removing ${batch.length} file(s) from ${bucketName} failed; left for the start-up sweep: ${String(err)}`,
        );
      }
    }
  }
}
