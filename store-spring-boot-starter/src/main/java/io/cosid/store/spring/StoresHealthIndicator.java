package io.cosid.store.spring;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** The stores' health ({@link StoresHealth}) as Spring Boot 3's actuator takes it. */
final class StoresHealthIndicator extends AbstractHealthIndicator {

    private final StoresHealth health;

    StoresHealthIndicator(StoresHealth health) {
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
