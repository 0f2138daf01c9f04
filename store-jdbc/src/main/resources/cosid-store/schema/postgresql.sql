-- cosid-store tables on PostgreSQL 14 or later, with the default table prefix cosid_.
-- Apply with Flyway, Liquibase or psql, or let a store create them (option schema: create).
-- What each column means: store-jdbc/README.md, "Tables".

CREATE TABLE IF NOT EXISTS cosid_ranges (
  key_hash    bytea PRIMARY KEY,
  range_key   text NOT NULL,
  next_value  bigint NOT NULL CHECK (next_value >= 0),
  sealed      boolean NOT NULL DEFAULT false,
  incarnation bigint GENERATED ALWAYS AS IDENTITY,
  written_origin     bigint NOT NULL,
  written_replicated boolean NOT NULL
);

CREATE TABLE IF NOT EXISTS cosid_namespaces (
  name         text PRIMARY KEY,
  slot_limit   integer NOT NULL,
  tolerance_ms bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS cosid_slots (
  namespace     text NOT NULL,
  slot          integer NOT NULL,
  owner_key     text NOT NULL,
  released      boolean NOT NULL,
  fence         bigint NOT NULL,
  incarnation   bigint NOT NULL,
  ttl_ms        bigint NOT NULL,
  tolerance_ms  bigint NOT NULL,
  floor_ms      bigint NOT NULL,
  expires_ms    bigint NOT NULL,
  ceiling_ms    bigint NOT NULL,
  next_floor_ms bigint NOT NULL,
  released_ms   bigint NOT NULL,
  nonce         text NOT NULL,
  written_origin     bigint NOT NULL,
  written_replicated boolean NOT NULL,
  PRIMARY KEY (namespace, slot)
);

CREATE TABLE IF NOT EXISTS cosid_owners (
  namespace text NOT NULL,
  owner_key text NOT NULL,
  slots     text NOT NULL,
  PRIMARY KEY (namespace, owner_key)
);
