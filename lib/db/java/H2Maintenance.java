import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;

/**
 * Once a second: fsyncs the file when something was committed since the last sync, which
 * bounds what an OS crash or power loss can take to about a second of acknowledged writes (a
 * process crash loses nothing: committed chunks are in the page cache already; an fsync per
 * write would close that window too, at the price of a disk flush per request), and rewrites
 * the live pages of mostly-dead chunks so their space can be reused. Under a commit per write,
 * MVStore's own housekeeping leaves thousands of chunks that are 95 % dead.
 */
final class H2Maintenance extends Thread {
    /** How often the H2 file is fsync'ed (when something was committed since the last sync). */
    private static final long SYNC_INTERVAL_MS = 1000;

    private final MVStore store;
    private volatile boolean running = true;

    H2Maintenance(MVStore store) {
        super("h2-maintenance");
        setDaemon(true);
        this.store = store;
    }

    @Override
    public void run() {
        long synced = store.getCurrentVersion();
        while (running) {
            try {
                Thread.sleep(SYNC_INTERVAL_MS);
                if (store.isClosed()) return;
                long version = store.getCurrentVersion();
                if (version != synced) {
                    store.sync();
                    synced = version;
                }
                FileStore<?> file = store.getFileStore();
                if (file != null && file.getChunksFillRate() < 50 && store.compact(80, 4 << 20)) {
                    store.commit();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running || store.isClosed()) return;
                System.err.println("h2 maintenance failed: " + e);
            }
        }
    }

    void finish() {
        running = false;
        interrupt();
        try {
            join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
