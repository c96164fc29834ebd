package dev.sluice.opensearch;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * A single-node OpenSearch for sluice's local stack: HTTP on 127.0.0.1:SLUICE_OPENSEARCH_PORT
 * (default 9200), transport on 127.0.0.1:9300-9399, everything it writes under HOME_DIR (the
 * first argument, else SLUICE_OPENSEARCH_HOME). No security plugin. The modules sluice needs are
 * loaded from the classpath instead of a modules directory: Netty4 (HTTP + transport),
 * analysis-common (whitespace tokenizer, lowercase and the other common filters) and reindex
 * (_delete_by_query).
 *
 * <p>Logs go to stdout (the stack script redirects them). SIGTERM closes the node cleanly.
 */
public final class SingleNode {
  private SingleNode() {}

  /** Node's constructor that accepts classpath plugins is protected; this is all we need of it. */
  private static final class ClasspathPluginNode extends Node {
    ClasspathPluginNode(Environment environment, List<Class<? extends Plugin>> plugins) {
      super(environment, plugins, true);
    }
  }

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      // Node threads are non-daemon: without an explicit exit a failed start would hang here.
      // System.exit runs the shutdown hook, which closes whatever the node had opened.
      t.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    // Before Log4j initialises: the shutdown hook below closes logging after the node, and
    // message lookups stay off (as in the OpenSearch distribution's jvm.options).
    System.setProperty("log4j.shutdownHookEnabled", "false");
    System.setProperty("log4j2.disable.jmx", "true");
    System.setProperty("log4j2.formatMsgNoLookups", "true");

    String homeArg = args.length > 0 ? args[0] : System.getenv("SLUICE_OPENSEARCH_HOME");
    if (homeArg == null || homeArg.isBlank()) {
      System.err.println("usage: SingleNode HOME_DIR (or set SLUICE_OPENSEARCH_HOME)");
      System.exit(2);
    }
    Path home = Path.of(homeArg).toAbsolutePath().normalize();
    String port = envOr("SLUICE_OPENSEARCH_PORT", "9200");
    Files.createDirectories(home.resolve("config"));
    Files.createDirectories(home.resolve("data"));
    Files.createDirectories(home.resolve("logs"));

    Settings settings = Settings.builder()
        .put("path.home", home.toString())
        .put("path.data", home.resolve("data").toString())
        .put("path.logs", home.resolve("logs").toString())
        .put("cluster.name", "sluice")
        .put("node.name", "sluice-opensearch")
        .put("discovery.type", "single-node")
        .put("network.host", "127.0.0.1")
        .put("http.port", port)
        .put("transport.port", envOr("SLUICE_OPENSEARCH_TRANSPORT_PORT", "9300-9399"))
        // Shares two cores with Temporal, Postgres and the tests: small thread pools.
        .put("node.processors", Integer.parseInt(envOr("SLUICE_OPENSEARCH_PROCESSORS", "1")))
        // A developer's disk may be fuller than the default watermarks allow; never go read-only.
        .put("cluster.routing.allocation.disk.threshold_enabled", false)
        .build();

    Environment environment = new Environment(settings, home.resolve("config"));
    try (InputStream config = SingleNode.class.getResourceAsStream("/log4j2.properties")) {
      if (config == null) throw new IllegalStateException("log4j2.properties missing from the classpath");
      Files.copy(config, home.resolve("config").resolve("log4j2.properties"), StandardCopyOption.REPLACE_EXISTING);
    }
    LogConfigurator.registerErrorListener();
    LogConfigurator.setNodeName("sluice-opensearch");
    LogConfigurator.configure(environment);
    Node node = new ClasspathPluginNode(environment, List.of(Netty4Plugin.class, CommonAnalysisPlugin.class, ReindexPlugin.class));

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        node.close();
        if (!node.awaitClose(20, TimeUnit.SECONDS)) {
          System.err.println("opensearch node did not close within 20s");
        }
      } catch (Exception e) {
        e.printStackTrace();
      } finally {
        stopped.countDown();
        Configurator.shutdown((LoggerContext) LogManager.getContext(false));
      }
    }, "sluice-opensearch-shutdown"));

    node.start();
    // The node's threads are non-daemon; the main thread just waits for the shutdown hook.
    stopped.await();
  }

  private static String envOr(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
