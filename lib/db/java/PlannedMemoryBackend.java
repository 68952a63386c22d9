import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;

/** The memory backend, with collections that plan filters by PinnedIndexPlan first, and bulkWrite. */
final class PlannedMemoryBackend extends MemoryBackend {
    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        if (!ClientBulkWrite.isIt(databaseName, command)) return super.handleCommand(channel, databaseName, command, query);
        return ClientBulkWrite.handle(query, (database, name, body) -> super.handleCommand(channel, database, name, body));
    }

    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName, getCursorRegistry());
    }

    static final class Database extends MemoryDatabase {
        Database(String databaseName, CursorRegistry cursorRegistry) {
            super(databaseName, cursorRegistry);
        }

        @Override
        protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
            return new Collection(this, collectionName, options, cursorRegistry);
        }
    }

    static final class Collection extends MemoryCollection {
        Collection(MongoDatabase database, String name, CollectionOptions options, CursorRegistry cursors) {
            super(database, name, options, cursors);
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
