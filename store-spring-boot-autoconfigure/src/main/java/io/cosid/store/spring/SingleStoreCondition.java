package io.cosid.store.spring;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Exactly one store is configured under {@code cosid.stores}: then its range and slot stores (and
 * CosId's distributors on them) are beans too; with several, the application picks.
 */
final class SingleStoreCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(
            ConditionContext context, AnnotatedTypeMetadata metadata) {
        int stores = StoreBeansRegistrar.configured(context.getEnvironment()).size();
        return stores == 1
                ? ConditionOutcome.match("one store under cosid.stores")
                : ConditionOutcome.noMatch(
                        stores + " stores under cosid.stores (one is needed for the shortcuts)");
    }
}
