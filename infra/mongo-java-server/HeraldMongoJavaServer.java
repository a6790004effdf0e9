import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;

/**
 * mongo-java-server, in memory, on 127.0.0.1 only: `java HeraldMongoJavaServer [port]`
 * (0 or none: a free port). Prints `listening 127.0.0.1:<port>` once it accepts
 * connections, and runs until its standard input closes, so a test process that
 * dies takes its server with it.
 */
public final class HeraldMongoJavaServer {
  /**
   * Version 5.0 with MongoDB 5.0's wire version, 13: the server's own MONGO_5_0
   * reports wire version 8 (MongoDB 4.2), and the Node driver 7 refuses any
   * server below 9 (MongoDB 4.4).
   */
  private static final MongoVersion VERSION = new MongoVersion() {
    @Override
    public List<Integer> getVersionArray() {
      return List.of(5, 0, 0);
    }

    @Override
    public int getWireVersion() {
      return 13;
    }
  };

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    MongoServer server = new MongoServer(new MemoryBackend().version(VERSION));
    server.bind("127.0.0.1", port);
    System.out.println("listening 127.0.0.1:" + server.getLocalAddress().getPort());
    System.out.flush();
    while (System.in.read() != -1) {
      // Input is ignored; only its end matters.
    }
    server.shutdownNow();
  }
}
