import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local listening on the loopback address only. Its command line has no host
 * option: its Jetty server is built for a port alone, which binds every interface, and DynamoDB
 * Local accepts any credentials. So this builds the server from the same arguments as the jar's
 * own main class, points each connector at 127.0.0.1 before it opens its socket, and starts it.
 * Run by the Java source launcher (no build step); infra/local/dynamodb-local.ts starts it.
 */
public class DynamoDbLocalOnLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    // The Jetty server is a private field of DynamoDB Local's wrapper, with no accessor.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local built a server without connectors");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
  }
}
