package io.cosid.store.zookeeper.faults;

/**
 * Short or long: every fault scenario runs a short form in {@code mvn verify} and a long soak form
 * with {@code -Dcosid.soak=true} (see docs/reliability.md for the command).
 */
final class Soak {

    static final boolean ON = Boolean.getBoolean("cosid.soak");

    private Soak() {}

    static int scale(int shortForm, int soakForm) {
        return ON ? soakForm : shortForm;
    }
}
