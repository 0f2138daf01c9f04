package io.cosid.store.spring;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * One store's health ({@link StoreHealth}) as Spring Boot 4 takes it (its health types moved to
 * {@code org.springframework.boot.health.contributor}).
 */
final class BootFourStoreHealthIndicator extends AbstractHealthIndicator {

    private final StoreHealth health;

    BootFourStoreHealthIndicator(StoreHealth health) {
        super("cosid-store health check failed");
        this.health = health;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        StoreHealth.Check check = health.check();
        builder.withDetails(check.details());
        if (check.up()) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
