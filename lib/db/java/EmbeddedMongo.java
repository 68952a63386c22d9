import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.util.List;

/**
 * Starts mongo-java-server for the content API when no real mongod is available.
 * Usage: EmbeddedMongo memory | EmbeddedMongo h2 FILE
 * Prints "READY <port>" once listening. Shuts down when its standard input closes, so the
 * engine never outlives the Node process that started it.
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

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: EmbeddedMongo memory | EmbeddedMongo h2 FILE");
            System.exit(2);
        }
        MongoBackend backend = args[0].equals("h2") ? new H2Backend(args[1]) : new MemoryBackend();
        backend.version(ADVERTISED);
        MongoServer server = new MongoServer(backend);
        server.bind("127.0.0.1", 0);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        System.out.println("READY " + server.getLocalAddress().getPort());
        System.out.flush();
        while (System.in.read() != -1) {
            // Input is ignored; end of stream means the parent is gone.
        }
        System.exit(0);
    }
}
