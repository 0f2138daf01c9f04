package io.cosid.store.cosid;

import me.ahoo.cosid.CosIdException;

/**
 * Thrown by {@link LeaseBoundSnowflakeId} instead of an ID that its machine id's lease does not
 * cover: the lease was lost to another holder, reverted, or not renewed within its ttl, or the ID's
 * timestamp lies outside the lease's window {@code [floor, ceiling)}. The message says which. The
 * ID was not handed out; no other instance can have handed it out either.
 */
public final class MachineIdLeaseException extends CosIdException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with the reason in words.
     *
     * @param message what the lease does not cover, and why
     */
    public MachineIdLeaseException(String message) {
        super(message);
    }
}
