-- cosid-store tables on MySQL 8.0 or later and MariaDB 10.6 or later (InnoDB), with the default
-- table prefix cosid_. Apply with Flyway, Liquibase or the mysql client, or let a store create them
-- (option schema: create). What each column means: store-jdbc/README.md, "Tables".
-- Binary collation: keys, namespaces and owner keys compare as the API does, case and accents apart.

CREATE TABLE IF NOT EXISTS cosid_ranges (
  key_hash    BINARY(32) NOT NULL PRIMARY KEY,
  range_key   VARCHAR(1024) NOT NULL,
  next_value  BIGINT NOT NULL,
  sealed      BOOLEAN NOT NULL DEFAULT FALSE,
  incarnation BIGINT NOT NULL AUTO_INCREMENT UNIQUE,
  written_origin     BIGINT NOT NULL,
  written_replicated BOOLEAN NOT NULL,
  CHECK (next_value >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE IF NOT EXISTS cosid_namespaces (
  name         VARCHAR(255) NOT NULL PRIMARY KEY,
  slot_limit   INT NOT NULL,
  tolerance_ms BIGINT NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE IF NOT EXISTS cosid_slots (
  namespace     VARCHAR(255) NOT NULL,
  slot          INT NOT NULL,
  owner_key     VARCHAR(255) NOT NULL,
  released      BOOLEAN NOT NULL,
  fence         BIGINT NOT NULL,
  incarnation   BIGINT NOT NULL,
  ttl_ms        BIGINT NOT NULL,
  tolerance_ms  BIGINT NOT NULL,
  floor_ms      BIGINT NOT NULL,
  expires_ms    BIGINT NOT NULL,
  ceiling_ms    BIGINT NOT NULL,
  next_floor_ms BIGINT NOT NULL,
  released_ms   BIGINT NOT NULL,
  nonce         VARCHAR(64) NOT NULL,
  written_origin     BIGINT NOT NULL,
  written_replicated BOOLEAN NOT NULL,
  PRIMARY KEY (namespace, slot)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE IF NOT EXISTS cosid_owners (
  namespace VARCHAR(255) NOT NULL,
  owner_key VARCHAR(255) NOT NULL,
  slots     VARCHAR(1024) NOT NULL,
  PRIMARY KEY (namespace, owner_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
