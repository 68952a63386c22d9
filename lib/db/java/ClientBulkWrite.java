import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import de.bwaldvogel.mongo.exception.MongoServerException;

import java.util.ArrayList;
import java.util.List;

/**
 * MongoDB 8.0's {@code bulkWrite} admin command: one command whose inserts, updates and deletes
 * go to several collections, applied in order, each op through the engine's own insert, update or
 * delete command (the library has no such command). The content API sends a version write's
 * follow-ups this way, so they cost one round trip instead of one per collection.
 * <p>
 * Covered: ordered and unordered batches, {@code errorsOnly}, per-op results ({@code n},
 * {@code nModified}, {@code upserted}) and the totals the driver reads. An ordered batch stops at
 * its first failed op, which is what lets a caller put a write last that must only happen once
 * the ones before it did. Not covered: {@code sort} on an update (the library's update has none),
 * collation, {@code let}.
 */
final class ClientBulkWrite {
    /** Runs one of the engine's own commands, as the backend's handleCommand would. */
    @FunctionalInterface
    interface Engine {
        Document run(String databaseName, String command, Document body);
    }

    private ClientBulkWrite() {
    }

    static boolean isIt(String databaseName, String command) {
        return databaseName.equals("admin") && command.equalsIgnoreCase("bulkWrite");
    }

    static Document handle(Document query, Engine engine) {
        List<Document> ops = documents(query, "ops");
        List<Document> nsInfo = documents(query, "nsInfo");
        boolean ordered = !query.containsKey("ordered") || Utils.isTrue(query.get("ordered"));
        boolean errorsOnly = Utils.isTrue(query.get("errorsOnly"));
        Totals totals = new Totals();
        List<Document> batch = new ArrayList<>();
        for (int idx = 0; idx < ops.size(); idx++) {
            Document result = apply(ops.get(idx), nsInfo, engine, totals);
            result.put("idx", idx);
            boolean failed = !Integer.valueOf(1).equals(result.get("ok"));
            if (failed || !errorsOnly) batch.add(result);
            if (failed && ordered) break;
        }
        Document cursor = new Document("id", 0L);
        cursor.put("firstBatch", batch);
        cursor.put("ns", "admin.$cmd.bulkWrite");
        Document reply = new Document("cursor", cursor);
        reply.put("nErrors", totals.errors);
        reply.put("nInserted", totals.inserted);
        reply.put("nMatched", totals.matched);
        reply.put("nModified", totals.modified);
        reply.put("nUpserted", totals.upserted);
        reply.put("nDeleted", totals.deleted);
        Utils.markOkay(reply);
        return reply;
    }

    private static final class Totals {
        int errors;
        int inserted;
        int matched;
        int modified;
        int upserted;
        int deleted;
    }

    /** One op, as its collection's insert, update or delete command; its result entry (without idx). */
    private static Document apply(Document op, List<Document> nsInfo, Engine engine, Totals totals) {
        String kind = op.containsKey("insert") ? "insert" : op.containsKey("update") ? "update" : "delete";
        if (!op.containsKey(kind)) return failure(totals, 9, "FailedToParse", "an op names none of insert, update, delete");
        String ns = (String) nsInfo.get(((Number) op.get(kind)).intValue()).get("ns");
        String database = Utils.getDatabaseNameFromFullName(ns);
        String collection = Utils.getCollectionNameFromFullName(ns);
        Document body = new Document(kind, collection);
        body.put("ordered", Boolean.TRUE);
        boolean multi = Utils.isTrue(op.get("multi"));
        switch (kind) {
            case "insert" -> body.put("documents", List.of(op.get("document")));
            case "update" -> {
                Document update = new Document("q", op.get("filter"));
                update.put("u", op.get("updateMods"));
                update.put("multi", multi);
                update.put("upsert", Utils.isTrue(op.get("upsert")));
                if (op.containsKey("arrayFilters")) update.put("arrayFilters", op.get("arrayFilters"));
                body.put("updates", List.of(update));
            }
            default -> {
                Document delete = new Document("q", op.get("filter"));
                delete.put("limit", multi ? 0 : 1);
                body.put("deletes", List.of(delete));
            }
        }
        Document reply;
        try {
            reply = engine.run(database, kind, body);
        } catch (MongoServerError e) {
            return failure(totals, e.getCode(), e.getCodeName(), e.getMessageWithoutErrorCode());
        } catch (MongoServerException e) {
            return failure(totals, 8, "UnknownError", e.getMessageWithoutErrorCode());
        }
        List<Document> writeErrors = documents(reply, "writeErrors");
        if (!writeErrors.isEmpty()) {
            Document error = writeErrors.get(0);
            return failure(totals, ((Number) error.get("code")).intValue(), (String) error.get("codeName"),
                (String) error.get("errmsg"));
        }
        Document result = new Document("ok", 1);
        switch (kind) {
            case "insert" -> {
                // The library's insert reply counts the documents it was given; without a write error that is 1.
                result.put("n", 1);
                totals.inserted++;
            }
            case "update" -> {
                int n = ((Number) reply.get("n")).intValue();
                int modified = ((Number) reply.get("nModified")).intValue();
                List<Document> upserted = documents(reply, "upserted");
                result.put("n", n);
                result.put("nModified", modified);
                if (!upserted.isEmpty()) {
                    result.put("upserted", new Document("_id", upserted.get(0).get("_id")));
                    totals.upserted++;
                }
                // n counts an upsert too; nMatched does not.
                totals.matched += n - upserted.size();
                totals.modified += modified;
            }
            default -> {
                int n = ((Number) reply.get("n")).intValue();
                result.put("n", n);
                totals.deleted += n;
            }
        }
        return result;
    }

    private static Document failure(Totals totals, int code, String codeName, String message) {
        totals.errors++;
        Document result = new Document("ok", 0);
        result.put("code", code);
        if (codeName != null) result.put("codeName", codeName);
        result.put("errmsg", message);
        return result;
    }

    @SuppressWarnings("unchecked")
    private static List<Document> documents(Document holder, String key) {
        Object value = holder.get(key);
        return value instanceof List<?> list ? (List<Document>) list : List.of();
    }
}
