import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts mongo-java-server for the content API when no real mongod is available.
 * <p>
 * Usage: {@code EmbeddedMongo (memory | h2 FILE) [--port=N] [--bind-wait-ms=N] [--lock-wait-ms=N]}
 * <p>
 * Prints "READY <port>" once listening. Shuts down cleanly (the H2 store is committed and
 * closed) when its standard input closes or it receives SIGTERM/SIGINT, so the engine never
 * outlives the Node process that started it.
 * <p>
 * --port asks for a given port (the Node supervisor restarts a dead engine on its previous port,
 * so connected drivers reconnect by themselves); when it is taken, the engine waits up to
 * --bind-wait-ms (default 10 s) for it to become free and otherwise exits with code 3.
 * <p>
 * The H2 file is locked by the engine that has it open. An engine whose parent was killed ends
 * when its standard input closes, but its clean shutdown (commit, a little compaction) takes a
 * moment, and a service restarted at once would find the file still locked: the store is opened
 * again until --lock-wait-ms (default 60 s) has passed, and only then does the engine exit with
 * code 4, naming the file.
 */
public final class EmbeddedMongo {
    /**
     * The Node driver 7 refuses servers advertising a wire version below 9, and the newest
     * ServerVersion the library ships advertises 8. The handshake reports MongoDB 8.0 (wire
     * version 25), the first with the bulkWrite command, which ClientBulkWrite adds; the content
     * API sends that command only to servers that advertise it.
     */
    private static final MongoVersion ADVERTISED = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(8, 0, 0);
        }

        @Override
        public int getWireVersion() {
            return 25;
        }
    };

    static final int EXIT_USAGE = 2;
    static final int EXIT_PORT_UNAVAILABLE = 3;
    static final int EXIT_FILE_LOCKED = 4;

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || (args[0].equals("h2") && args.length < 2)) {
            usage();
        }
        boolean h2 = args[0].equals("h2");
        if (!h2 && !args[0].equals("memory")) usage();
        int port = 0;
        long bindWaitMs = 10_000;
        long lockWaitMs = 60_000;
        for (int i = h2 ? 2 : 1; i < args.length; i++) {
            if (args[i].startsWith("--port=")) {
                port = Integer.parseInt(args[i].substring("--port=".length()));
            } else if (args[i].startsWith("--bind-wait-ms=")) {
                bindWaitMs = Long.parseLong(args[i].substring("--bind-wait-ms=".length()));
            } else if (args[i].startsWith("--lock-wait-ms=")) {
                lockWaitMs = Long.parseLong(args[i].substring("--lock-wait-ms=".length()));
            } else {
                usage();
            }
        }

        // Before the store is opened: a wait for the port must not hold the file's lock.
        if (port != 0) waitUntilFree(port, bindWaitMs);

        MongoBackend backend;
        if (h2) {
            // Opened here rather than by H2Backend(String) so the backend can commit it per write.
            backend = new DurableH2Backend(openWhenFree(args[1], lockWaitMs));
        } else {
            backend = new PlannedMemoryBackend();
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

    /** Opens the store, waiting while another process (an engine still shutting down) holds its lock. */
    private static MVStore openWhenFree(String file, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        boolean told = false;
        while (true) {
            try {
                return MVStore.open(file);
            } catch (MVStoreException e) {
                if (e.getErrorCode() != DataUtils.ERROR_FILE_LOCKED) throw e;
                if (System.nanoTime() > deadline) {
                    System.err.println("FILE_LOCKED " + file + " is still locked by another process after " + waitMs + " ms");
                    System.exit(EXIT_FILE_LOCKED);
                }
                if (!told) {
                    System.err.println("waiting for " + file + ", locked by another process (an engine shutting down?)");
                    told = true;
                }
                Thread.sleep(100);
            }
        }
    }

    private static void usage() {
        System.err.println("usage: EmbeddedMongo (memory | h2 FILE) [--port=N] [--bind-wait-ms=N] [--lock-wait-ms=N]");
        System.exit(EXIT_USAGE);
    }
}
