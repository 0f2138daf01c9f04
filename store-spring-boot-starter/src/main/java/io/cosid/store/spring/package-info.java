/**
 * Spring Boot auto-configuration for cosid-store ({@link
 * io.cosid.store.spring.CosIdStoreAutoConfiguration}): one {@code Store} bean per entry of {@code
 * cosid.stores}, the application's Curator client when it has one, CosId's distributors, metrics
 * and health.
 */
@NullMarked
package io.cosid.store.spring;

import org.jspecify.annotations.NullMarked;
