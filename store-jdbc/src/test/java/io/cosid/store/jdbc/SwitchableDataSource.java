package io.cosid.store.jdbc;

import javax.sql.DataSource;

/**
 * A data source whose address can be switched to another server, as a virtual IP or a DNS name
 * moves to a promoted standby in a failover.
 */
final class SwitchableDataSource extends ForwardingDataSource {

    private volatile DataSource target;

    SwitchableDataSource(DataSource target) {
        this.target = target;
    }

    /** Leads every later connection to {@code next}. */
    void switchTo(DataSource next) {
        this.target = next;
    }

    @Override
    DataSource target() {
        return target;
    }
}
