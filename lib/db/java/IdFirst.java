import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;

import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds the documents of a filter that pins {@code _id} through the {@code _id} index, whatever
 * else the filter names.
 * <p>
 * mongo-java-server uses an index only when the filter's fields are exactly the index's fields,
 * so {@code {_id: x, bucket_id: b, version: v}} (the service's conditional writes, and every
 * lookup that names its Bucket for shard targeting) scanned the whole collection. Here such a
 * filter starts from the at most one document (or, for {@code $in}, the few) the {@code _id}
 * index gives, and the caller still matches each against the whole filter, so the result is
 * the same as a scan's.
 */
final class IdFirst {
    private IdFirst() {
    }

    /** The positions to match the filter against, or null when the filter does not pin {@code _id}. */
    static <P> Iterable<P> positions(Document query, List<Index<P>> indexes) {
        if (query == null || query.size() < 2 || !query.containsKey("_id")) return null;
        Object id = query.get("_id");
        if (!pinned(id)) return null;
        Document byId = new Document("_id", id);
        for (Index<P> index : indexes) {
            if (index.canHandle(byId)) return index.getPositions(byId);
        }
        return null;
    }

    /**
     * A plain value, or {@code {$in: [plain values]}}. Anything else (null matches a missing
     * field, operators other than $in, arrays and sub-documents compare by other rules) is left
     * to the engine's own plan.
     */
    static boolean pinned(Object value) {
        if (value instanceof Document doc) {
            if (doc.size() != 1 || !(doc.get("$in") instanceof Collection<?> list)) return false;
            return list.stream().allMatch(IdFirst::plain);
        }
        return plain(value);
    }

    private static boolean plain(Object value) {
        return value != null
            && !(value instanceof Document)
            && !(value instanceof Collection<?>)
            && !(value instanceof BsonRegularExpression)
            && !(value instanceof Pattern);
    }
}
