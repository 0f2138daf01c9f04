package io.cosid.store.spi;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An operation handed to an observer's around-hook ({@link SafeObserver#around}): it runs the
 * operation the first time it is called and remembers how it ended; a second call runs nothing and
 * throws, so that no hook can make an operation run twice.
 *
 * @param <T> what the operation returns
 */
final class GuardedCall<T> implements Supplier<T> {

    private final Supplier<T> call;
    private boolean ran;
    private @Nullable T result;
    private @Nullable Throwable failure;

    GuardedCall(Supplier<T> call) {
        this.call = call;
    }

    @Override
    public T get() {
        if (ran) {
            throw new IllegalStateException(
                    "a store operation's around-hook called it a second time; it runs once");
        }
        ran = true;
        try {
            T value = call.get();
            result = value;
            return value;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        }
    }

    /** Whether the operation ran. */
    boolean ran() {
        return ran;
    }

    /** Whether {@code e} is the operation's own failure, passed through by the hook. */
    boolean isFailure(Throwable e) {
        return e == failure;
    }

    /** The operation's result, or its failure thrown again; only after it ran. */
    @SuppressWarnings("NullAway") // a ran operation without a failure returned its result
    T outcome() {
        Throwable f = failure;
        if (f instanceof RuntimeException r) {
            throw r;
        } else if (f instanceof Error e) {
            throw e;
        }
        return result;
    }
}
