package io.cosid.store.spring.fleet;

import io.cosid.store.cosid.MachineIdLeaseException;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import me.ahoo.cosid.snowflake.SnowflakeId;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One instance of a Spring Boot application that generates snowflake IDs with the starter's {@code
 * SnowflakeId} bean, in a JVM of its own: started with the application's properties as arguments
 * and {@code -Dfleet.out=FILE}, it writes every ID it hands out to that file (8 bytes each, flushed
 * every 256), prints {@code generating} once the first batch is on disk, and stops on a line (or
 * the end) of standard input: the context closes, which releases the machine id, and it prints
 * {@code stopped}. About 50,000 IDs a second, so that files stay small.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FleetApp {

    /** Created by Spring. */
    public FleetApp() {}

    /**
     * Runs the instance.
     *
     * @param args the application's properties, as {@code --key=value}
     * @throws IOException if the file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(System.getProperty("fleet.out"));
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(() -> awaitLine(stop), "fleet-stdin");
        stdin.setDaemon(true);
        stdin.start();
        try (ConfigurableApplicationContext context =
                        new SpringApplicationBuilder(FleetApp.class)
                                .web(WebApplicationType.NONE)
                                .run(args);
                DataOutputStream ids =
                        new DataOutputStream(
                                new BufferedOutputStream(Files.newOutputStream(out)))) {
            SnowflakeId generator = context.getBean(SnowflakeId.class);
            long generated = 0;
            long refused = 0;
            while (!stop.get()) {
                long id;
                try {
                    id = generator.generate();
                } catch (MachineIdLeaseException notCovered) {
                    // the generator stops rather than hand out an ID its lease does not cover
                    // (a guard late on a busy machine): wait for the next renew
                    if (refused++ == 0) {
                        System.out.println("refused: " + notCovered.getMessage());
                    }
                    LockSupport.parkNanos(1_000_000);
                    continue;
                }
                ids.writeLong(id);
                generated++;
                if (generated % 256 == 0) {
                    ids.flush();
                    if (generated == 256) {
                        System.out.println("generating");
                        System.out.flush();
                    }
                }
                if (generated % 50 == 0) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
            ids.flush();
            System.out.println("generated " + generated + ", refused " + refused);
        }
        System.out.println("stopped");
        System.out.flush();
    }

    private static void awaitLine(AtomicBoolean stop) {
        try {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            stop.set(true);
        }
    }
}
