import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * H2 backend whose writes are committed to the file before they are acknowledged.
 * <p>
 * By default MVStore commits in a background thread about once a second, so a write was
 * acknowledged to the client before it reached the file, and a killed engine lost it. Here
 * every command that may change data commits the store before its reply is written:
 * mongo-java-server handles a request on the channel's event loop thread and writes the reply
 * only after handleCommand returns, so a reply implies the change is in the file, at least in
 * the OS page cache. That survives the death of this process; an OS crash or power loss can
 * still lose what was written since the last fsync, about a second (see H2Maintenance).
 * <p>
 * MVStore's own background writer stays on for its housekeeping (and its commits, which are
 * harmless). Neither it nor these commits make a crash atomic across the maps one write
 * touches (documents, indexes): a commit can store another thread's write halfway through.
 * Only a write that had not been acknowledged yet can be caught like that.
 */
final class DurableH2Backend extends H2Backend {
    /**
     * How long a chunk of the H2 file that no longer holds live data is kept before its space is
     * reused. H2's default, 45 s, assumes nobody fsyncs and the OS writes dirty pages back within
     * that time; with an fsync every second (H2Maintenance), 15 s leaves a wide margin. It matters
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

    /** Commands that never change data: replying to them needs no commit. Anything else commits. */
    private static final Set<String> READ_ONLY = Set.of(
        "find", "getmore", "count", "distinct", "listcollections", "listindexes", "listdatabases",
        "hello", "ismaster", "ping", "buildinfo", "serverstatus", "dbstats", "collstats", "killcursors",
        "endsessions", "whatsmyuri", "getlasterror", "getparameter", "explain", "connectionstatus",
        "hostinfo", "getcmdlineopts", "getlog", "listcommands", "getfreemonitoringstatus");

    private final MVStore store;
    private final H2Maintenance maintenance;
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
        this.maintenance = new H2Maintenance(store);
        maintenance.start();
    }

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        if (isReadOnly(command, query)) {
            return super.handleCommand(channel, databaseName, command, query);
        }
        try {
            if (!ClientBulkWrite.isIt(databaseName, command)) return super.handleCommand(channel, databaseName, command, query);
            // Its ops are committed together, once, like any other write command's changes.
            return ClientBulkWrite.handle(query, (database, name, body) -> super.handleCommand(channel, database, name, body));
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

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName);
    }

    /**
     * H2Database with collections that plan filters by PinnedIndexPlan. The store comes from
     * getMvStore(), not from this backend's field: H2Backend's constructor opens the databases
     * a file already holds (calling openOrCreateDatabase) before a subclass's fields are set, and
     * H2Database's constructor likewise opens their collections before a subclass's fields are.
     */
    private final class Database extends H2Database {
        Database(String databaseName) {
            super(databaseName, getMvStore(), getCursorRegistry());
        }

        @Override
        protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
            // The map names H2Database uses (its prefixes are package-private): files written before
            // this class existed open with their data.
            String namespace = getFullCollectionNamespace(collectionName);
            MVMap<Object, Document> data = getMvStore().openMap("databases." + namespace);
            MVMap<String, Object> meta = getMvStore().openMap("meta." + namespace);
            return new Collection(this, collectionName, options, data, meta);
        }
    }

    private final class Collection extends H2Collection {
        Collection(MongoDatabase database, String name, CollectionOptions options, MVMap<Object, Document> data,
                   MVMap<String, Object> meta) {
            super(database, name, options, data, meta, getCursorRegistry());
        }

        @Override
        protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                                             Document fields) {
            return PinnedIndexPlan.query(query, getIndexes(),
                positions -> matchDocuments(query, positions, orderBy, skip, limit, batchSize, fields),
                () -> super.queryDocuments(query, orderBy, skip, limit, batchSize, fields));
        }
    }
}
