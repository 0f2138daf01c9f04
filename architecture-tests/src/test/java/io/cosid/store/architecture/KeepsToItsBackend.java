package io.cosid.store.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The condition of {@link ArchitectureRules#EVERY_BACKEND_KEEPS_TO_ITSELF}: the backends are the
 * packages {@code io.cosid.store.<name>} that hold a {@code StoreProvider}, found among the classes
 * checked; a class of a backend may use, of the project, the API, the spi and its own backend; a
 * class outside a backend may not use that backend's {@code internal} packages.
 */
final class KeepsToItsBackend extends ArchCondition<JavaClass> {

    private static final String PROJECT = ArchitectureRules.API + ".";
    private static final String PROVIDER = ArchitectureRules.API + ".StoreProvider";
    private static final String SPI = ArchitectureRules.API + ".spi";

    private final Set<String> backends = new TreeSet<>();

    KeepsToItsBackend() {
        super("keep to its backend");
    }

    @Override
    public void init(Collection<JavaClass> all) {
        backends.clear();
        for (JavaClass c : all) {
            if (!c.isInterface() && c.isAssignableTo(PROVIDER)) {
                root(c.getPackageName()).ifPresent(backends::add);
            }
        }
    }

    @Override
    public void check(JavaClass c, ConditionEvents events) {
        Optional<String> own = backendOf(c.getPackageName());
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
            String target = d.getTargetClass().getPackageName();
            if (!target.startsWith(PROJECT) && !target.equals(ArchitectureRules.API)) {
                continue;
            }
            Optional<String> theirs = backendOf(target);
            boolean allowed;
            if (own.isPresent()) {
                allowed =
                        target.equals(ArchitectureRules.API)
                                || within(target, SPI)
                                || within(target, own.get());
            } else {
                allowed = theirs.isEmpty() || !within(target, theirs.get() + ".internal");
            }
            if (!allowed) {
                events.add(
                        SimpleConditionEvent.violated(
                                d,
                                d.getDescription()
                                        + (own.isPresent()
                                                ? " (backend " + own.get() + " uses " + target + ")"
                                                : " (the internal package of "
                                                        + theirs.get()
                                                        + ")")));
            }
        }
    }

    private Optional<String> backendOf(String pkg) {
        return backends.stream().filter(b -> within(pkg, b)).findFirst();
    }

    /** {@code io.cosid.store.<name>} of a package below the API's, if it has one. */
    private static Optional<String> root(String pkg) {
        if (!pkg.startsWith(PROJECT)) {
            return Optional.empty();
        }
        int dot = pkg.indexOf('.', PROJECT.length());
        return Optional.of(dot < 0 ? pkg : pkg.substring(0, dot));
    }

    private static boolean within(String pkg, String root) {
        return pkg.equals(root) || pkg.startsWith(root + ".");
    }
}
