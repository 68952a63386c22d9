import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Finds the documents of a filter through a unique index whose every field the filter pins to a
 * value, whatever else the filter names.
 * <p>
 * mongo-java-server uses an index only when the filter's fields are exactly the index's fields,
 * so {@code {_id: x, bucket_id: b, version: v}} (the service's conditional writes, and every
 * lookup that names its Bucket for shard targeting) or {@code {key: k, $or: [...]}} (a rate
 * limit window) scanned the whole collection. Here such a filter starts from the few documents
 * the index gives for the pinned fields alone, and the caller still matches each against the
 * whole filter: the index returns every document those fields' values select (it keys an array
 * by each element, as matching does), so the result is the same as a scan's.
 */
final class PinnedIndexPlan {
    private PinnedIndexPlan() {
    }

    /**
     * A collection's queryDocuments: the filter matched against the positions this plan finds, or
     * the engine's own plan when it finds none. The two collection classes share it here, as they
     * extend different engine classes.
     */
    static <P> QueryResult query(Document query, List<Index<P>> indexes, Function<Iterable<P>, QueryResult> matchAt,
                                 Supplier<QueryResult> enginePlan) {
        Iterable<P> positions = positions(query, indexes);
        return positions == null ? enginePlan.get() : matchAt.apply(positions);
    }

    /** The positions to match the filter against, or null to leave the filter to the engine's own plan. */
    static <P> Iterable<P> positions(Document query, List<Index<P>> indexes) {
        if (query == null) return null;
        for (Index<P> index : indexes) {
            // Secondary indexes are placeholders in this engine; a filter naming exactly the
            // index's fields is served by the engine itself.
            if (!(index instanceof AbstractUniqueIndex<P>) || index.getKeys().size() >= query.size()) continue;
            Document pinned = pinnedPart(query, index.getKeys());
            if (pinned != null && index.canHandle(pinned)) return index.getPositions(pinned);
        }
        return null;
    }

    /** The filter's conditions on the index's fields, or null when one of them is not a pinned value. */
    private static Document pinnedPart(Document query, List<IndexKey> keys) {
        Document pinned = new Document();
        for (IndexKey key : keys) {
            Object value = query.get(key.getKey());
            boolean ok = keys.size() == 1 ? pinned(value) : plain(value);
            if (!ok) return null;
            pinned.put(key.getKey(), value);
        }
        return pinned;
    }

    /**
     * A plain value, or {@code {$in: [plain values]}}. Anything else (null also matches a missing
     * field, operators other than $in, arrays and sub-documents compare by other rules) is left to
     * the engine's own plan.
     */
    static boolean pinned(Object value) {
        if (value instanceof Document doc) {
            if (doc.size() != 1 || !(doc.get("$in") instanceof Collection<?> list)) return false;
            return list.stream().allMatch(PinnedIndexPlan::plain);
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
