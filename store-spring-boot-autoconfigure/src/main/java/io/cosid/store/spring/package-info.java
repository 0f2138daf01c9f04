/**
 * Spring Boot auto-configuration for cosid-store, one class per concern: the stores ({@link
 * io.cosid.store.spring.CosIdStoreAutoConfiguration}: one {@code Store} bean per entry of {@code
 * cosid.stores}, the application's Curator client when it has one), CosId's distributors, metrics,
 * health and observations; observers reach the stores through {@link
 * io.cosid.store.spring.StoreConfigCustomizer} beans.
 */
@NullMarked
package io.cosid.store.spring;

import org.jspecify.annotations.NullMarked;
