package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/** A real database server of a test's own that the test may pause, kill and start again. */
public interface FaultableServer extends AutoCloseable {

    /**
     * Creates a database nobody else uses.
     *
     * @return its name
     */
    String createDatabase();

    /**
     * The JDBC URL of {@code database} on this server.
     *
     * @param database the database's name
     * @return the URL
     */
    String jdbcUrl(String database);

    /**
     * A new connection to {@code database}.
     *
     * @param database the database's name
     * @return the connection
     * @throws SQLException if it cannot connect
     */
    Connection connect(String database) throws SQLException;

    /**
     * Stops every process of the server (SIGSTOP): it accepts connections in the kernel but answers
     * nothing.
     *
     * @throws IOException if a signal cannot be sent
     */
    void pause() throws IOException;

    /**
     * Lets a paused server go on (SIGCONT).
     *
     * @throws IOException if a signal cannot be sent
     */
    void resume() throws IOException;

    /**
     * Kills every process of the server (SIGKILL), as a power cut would, and waits until they are
     * gone.
     *
     * @throws IOException if a signal cannot be sent
     */
    void crash() throws IOException;

    /**
     * Starts a crashed server again on the same data and port, and waits until it answers.
     *
     * @throws IOException if it cannot start
     */
    void restart() throws IOException;

    @Override
    void close();
}
