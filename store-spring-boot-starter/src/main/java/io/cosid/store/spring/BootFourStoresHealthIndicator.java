package io.cosid.store.spring;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The stores' health ({@link StoresHealth}) as Spring Boot 4 takes it (its health types moved to
 * {@code org.springframework.boot.health.contributor}).
 */
final class BootFourStoresHealthIndicator extends AbstractHealthIndicator {

    private final StoresHealth health;

    BootFourStoresHealthIndicator(StoresHealth health) {
        super("cosid-store health check failed");
        this.health = health;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        StoresHealth.Check check = health.check();
        builder.withDetails(check.details());
        if (check.up()) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
