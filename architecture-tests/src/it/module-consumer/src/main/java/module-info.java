/** A user's named module: cosid-store's API comes with the in-memory backend. */
module com.example.modular {
    requires io.cosid.store.inmemory;

    exports com.example.modular;
}
