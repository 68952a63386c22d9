import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Starts mongo-java-server for the content API when no real mongod is available.
 * <p>
 * Usage: {@code EmbeddedMongo (memory | h2 FILE) [--port=N] [--bind-wait-ms=N]}
 * <p>
 * Prints "READY <port>" once listening. Shuts down cleanly (the H2 store is committed and
 * closed) when its standard input closes or it receives SIGTERM/SIGINT, so the engine never
 * outlives the Node process that started it.
 * <p>
 * --port asks for a given port (the Node supervisor restarts a dead engine on its previous port,
 * so connected drivers reconnect by themselves); when it is taken, the engine waits up to
 * --bind-wait-ms (default 10 s) for it to become free and otherwise exits with code 3.
 */
public final class EmbeddedMongo {
    /**
     * The Node driver 7 refuses servers advertising a wire version below 9, and the newest
     * ServerVersion the library ships advertises 8, so the handshake reports MongoDB 6.0.
     */
    private static final MongoVersion ADVERTISED = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(6, 0, 0);
        }

        @Override
        public int getWireVersion() {
            return 17;
        }
    };

    static final int EXIT_USAGE = 2;
    static final int EXIT_PORT_UNAVAILABLE = 3;

    /** How often the H2 file is fsync'ed (when something was committed since the last sync). */
    private static final long SYNC_INTERVAL_MS = 1000;

    /**
     * How long a chunk of the H2 file that no longer holds live data is kept before its space is
     * reused. H2's default, 45 s, assumes nobody fsyncs and the OS writes dirty pages back within
     * that time; with an fsync every second (Maintenance), 15 s leaves a wide margin. It matters
     * because every commit writes a new chunk (about 30 KB for a small insert): at the commit rate
     * cap below the dead space is bounded to roughly 200/s x 15 s x 30 KB, about 90 MB, under
     * sustained writes, and far less at ordinary rates, where 45 s would triple it.
     */
    private static final int RETENTION_MS = 15_000;

    /**
     * Commits are rate-limited (a token bucket): bursts of up to COMMIT_BURST commits go through at
     * once, sustained load gets at most COMMITS_PER_SECOND, writers then waiting a few ms and
     * sharing commits. Ordinary traffic never waits; a write flood cannot make the file's dead
     * space grow with its rate.
     */
    private static final double COMMITS_PER_SECOND = 200;
    private static final double COMMIT_BURST = 200;

    /** Time a clean shutdown may spend compacting the file (moving chunks together, shrinking it). */
    private static final int SHUTDOWN_COMPACTION_MS = 2000;

    /**
     * H2 backend whose writes are committed to the file before they are acknowledged.
     * <p>
     * By default MVStore commits in a background thread about once a second, so a write was
     * acknowledged to the client before it reached the file, and a killed engine lost it. Here
     * every command that may change data commits the store before its reply is written:
     * mongo-java-server handles a request on the channel's event loop thread and writes the reply
     * only after handleCommand returns, so a reply implies the change is in the file, at least in
     * the OS page cache. That survives the death of this process; an OS crash or power loss can
     * still lose what was written since the last fsync, about a second (see Maintenance).
     * <p>
     * MVStore's own background writer stays on for its housekeeping (and its commits, which are
     * harmless). Neither it nor these commits make a crash atomic across the maps one write
     * touches (documents, indexes): a commit can store another thread's write halfway through.
     * Only a write that had not been acknowledged yet can be caught like that.
     */
    static final class DurableH2Backend extends H2Backend {
        /** Commands that never change data: replying to them needs no commit. Anything else commits. */
        private static final Set<String> READ_ONLY = Set.of(
            "find", "getmore", "count", "distinct", "listcollections", "listindexes", "listdatabases",
            "hello", "ismaster", "ping", "buildinfo", "serverstatus", "dbstats", "collstats", "killcursors",
            "endsessions", "whatsmyuri", "getlasterror", "getparameter", "explain", "connectionstatus",
            "hostinfo", "getcmdlineopts", "getlog", "listcommands", "getfreemonitoringstatus");

        private final MVStore store;
        private final Maintenance maintenance;
        /** Write commands that have finished (their changes are in the maps). */
        private final AtomicLong finishedWrites = new AtomicLong();
        /** Every write command up to this number is in the file. Guarded by commitLock. */
        private long persistedWrites;
        /** The commit rate limiter's bucket. Guarded by commitLock. */
        private double commitTokens = COMMIT_BURST;
        private long tokensCountedAt = System.nanoTime();
        private final ReentrantLock commitLock = new ReentrantLock();

        DurableH2Backend(MVStore store) {
            super(store);
            this.store = store;
            store.setRetentionTime(RETENTION_MS);
            this.maintenance = new Maintenance(store);
            maintenance.start();
        }

        @Override
        public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
            if (isReadOnly(command, query)) {
                return super.handleCommand(channel, databaseName, command, query);
            }
            try {
                return super.handleCommand(channel, databaseName, command, query);
            } finally {
                // Also after a failed command: an ordered insertMany that stops at a duplicate key,
                // for one, has stored (and reports) the documents before it.
                persist();
            }
        }

        private static boolean isReadOnly(String command, Document query) {
            String name = command.toLowerCase(Locale.ROOT);
            if (READ_ONLY.contains(name)) return true;
            if (!name.equals("aggregate")) return false;
            // countDocuments and every read pipeline: only $out and $merge write.
            if (!(query.get("pipeline") instanceof List<?> pipeline)) return false;
            for (Object stage : pipeline) {
                if (!(stage instanceof Document doc) || doc.containsKey("$out") || doc.containsKey("$merge")) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Returns once this thread's changes are written to the file. One thread commits at a time;
         * a thread whose changes a commit (started after they were made) has already stored
         * returns at once, so concurrent writers share commits.
         */
        private void persist() {
            long mine = finishedWrites.incrementAndGet();
            commitLock.lock();
            try {
                if (persistedWrites >= mine) return;
                long covered = finishedWrites.get();
                // Nothing unsaved (a failed write, or the background writer took the change): no
                // commit, and no token taken for it.
                if (store.hasUnsavedChanges()) {
                    takeCommitToken();
                    covered = finishedWrites.get();
                    store.commit();
                }
                // commit() alone is not enough: when MVStore's background writer has just committed
                // (and so taken this thread's changes), there is nothing left to commit, while that
                // commit's chunk may still wait in the store's serialization and write queues.
                // This drains them.
                store.executeFilestoreOperation(() -> {
                    // Nothing to do: getting here means the queued writes are done.
                });
                persistedWrites = covered;
            } finally {
                commitLock.unlock();
            }
        }

        /** Waits, if need be, until the rate limiter allows a commit (meanwhile other writes join it). */
        private void takeCommitToken() {
            refillCommitTokens();
            if (commitTokens < 1) {
                LockSupport.parkNanos((long) ((1 - commitTokens) / COMMITS_PER_SECOND * 1e9));
                refillCommitTokens();
            }
            commitTokens = Math.max(0, commitTokens - 1);
        }

        private void refillCommitTokens() {
            long now = System.nanoTime();
            commitTokens = Math.min(COMMIT_BURST, commitTokens + (now - tokensCountedAt) / 1e9 * COMMITS_PER_SECOND);
            tokensCountedAt = now;
        }

        @Override
        public void close() {
            maintenance.finish();
            try {
                // Commits, compacts a little (which can shrink the file) and closes the store, so the
                // next start finds a cleanly closed file. super.close() then finds it closed.
                store.close(SHUTDOWN_COMPACTION_MS);
            } catch (RuntimeException e) {
                System.err.println("closing the H2 store failed: " + e);
            }
            super.close();
        }
    }

    /**
     * Once a second: fsyncs the file when something was committed since the last sync, which
     * bounds what an OS crash or power loss can take to about a second of acknowledged writes (a
     * process crash loses nothing: committed chunks are in the page cache already; an fsync per
     * write would close that window too, at the price of a disk flush per request), and rewrites
     * the live pages of mostly-dead chunks so their space can be reused. Under a commit per write,
     * MVStore's own housekeeping leaves thousands of chunks that are 95 % dead.
     */
    static final class Maintenance extends Thread {
        private final MVStore store;
        private volatile boolean running = true;

        Maintenance(MVStore store) {
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

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || (args[0].equals("h2") && args.length < 2)) {
            usage();
        }
        boolean h2 = args[0].equals("h2");
        if (!h2 && !args[0].equals("memory")) usage();
        int port = 0;
        long bindWaitMs = 10_000;
        for (int i = h2 ? 2 : 1; i < args.length; i++) {
            if (args[i].startsWith("--port=")) {
                port = Integer.parseInt(args[i].substring("--port=".length()));
            } else if (args[i].startsWith("--bind-wait-ms=")) {
                bindWaitMs = Long.parseLong(args[i].substring("--bind-wait-ms=".length()));
            } else {
                usage();
            }
        }

        // Before the store is opened: a wait for the port must not hold the file's lock.
        if (port != 0) waitUntilFree(port, bindWaitMs);

        MongoBackend backend;
        if (h2) {
            // Opened here rather than by H2Backend(String) so the backend can commit it per write.
            backend = new DurableH2Backend(MVStore.open(args[1]));
        } else {
            backend = new MemoryBackend();
        }
        backend.version(ADVERTISED);
        MongoServer server = new MongoServer(backend);
        // On failure, bind() shuts the server down, which closes the backend and the store.
        server.bind("127.0.0.1", port);

        AtomicBoolean closed = new AtomicBoolean();
        Runnable shutdown = () -> {
            if (!closed.compareAndSet(false, true)) return;
            // Closes the clients, then the backend, which commits and closes the store.
            server.shutdownNow();
        };
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "shutdown"));

        System.out.println("READY " + server.getLocalAddress().getPort());
        System.out.flush();
        while (System.in.read() != -1) {
            // Input is ignored; end of stream means the parent is gone or asks us to stop.
        }
        shutdown.run();
        System.exit(0);
    }

    /**
     * Waits until the port can be bound. Right after an engine died its port is normally free at
     * once (the listening socket closes with the process, and SO_REUSEADDR ignores connections
     * in TIME_WAIT), but another program may briefly hold it.
     */
    private static void waitUntilFree(int port, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (true) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress("127.0.0.1", port));
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    System.err.println("PORT_UNAVAILABLE port " + port + " is still in use after " + waitMs + " ms: " + e.getMessage());
                    System.exit(EXIT_PORT_UNAVAILABLE);
                }
                Thread.sleep(200);
            }
        }
    }

    private static void usage() {
        System.err.println("usage: EmbeddedMongo (memory | h2 FILE) [--port=N] [--bind-wait-ms=N]");
        System.exit(EXIT_USAGE);
    }
}
