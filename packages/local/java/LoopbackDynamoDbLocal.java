// DynamoDB Local bound to loopback. Its own launcher (ServerRunner) listens on every interface and has no option to
// choose one; this one builds the same server from the same arguments and sets its connectors' host to 127.0.0.1
// before starting it, so the table is never reachable from the network. Run as a single-file source program
// (java LoopbackDynamoDbLocal.java, Java 11+) with DynamoDBLocal.jar and its libraries on the class path.
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    int bound = 0;
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) {
        ((ServerConnector) connector).setHost("127.0.0.1");
        bound++;
      }
    }
    if (bound == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind to loopback");
    proxy.start();
    proxy.join();
  }
}
