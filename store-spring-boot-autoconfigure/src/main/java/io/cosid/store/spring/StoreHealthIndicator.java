package io.cosid.store.spring;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** One store's health ({@link StoreHealth}) as Spring Boot 3's actuator takes it. */
final class StoreHealthIndicator extends AbstractHealthIndicator {

    private final StoreHealth health;

    StoreHealthIndicator(StoreHealth health) {
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
