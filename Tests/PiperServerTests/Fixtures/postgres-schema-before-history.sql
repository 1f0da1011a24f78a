-- The PostgreSQL schema as piper created it before the schema had a history (as of commit
-- af91011): the statements PostgresStore, PostgresRateLimits and PostgresCredentials ran on
-- every start, kept verbatim with their default table names (piper_saves, piper_rate_limits,
-- prefix piper), and no version table. PostgresMigrationTests builds a database with them and
-- checks that this version adopts it in place. Do not edit: it is the past.
-- (Statements end with a semicolon at the end of a line; the test runs them one at a time.)

CREATE TABLE IF NOT EXISTS piper_saves (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    content text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS piper_saves_expires_at ON piper_saves (expires_at);
ALTER TABLE piper_saves ADD COLUMN IF NOT EXISTS source_url text, ADD COLUMN IF NOT EXISTS byline text, ADD COLUMN IF NOT EXISTS site_name text, ADD COLUMN IF NOT EXISTS published_time text, ADD COLUMN IF NOT EXISTS lang text, ADD COLUMN IF NOT EXISTS dir text, ADD COLUMN IF NOT EXISTS excerpt text;

CREATE TABLE IF NOT EXISTS piper_rate_limits (
    bucket text PRIMARY KEY,
    tokens double precision NOT NULL,
    updated double precision NOT NULL,
    allowed boolean NOT NULL
);

CREATE TABLE IF NOT EXISTS piper_devices (
    id text PRIMARY KEY,
    name text NOT NULL UNIQUE,
    kind text NOT NULL,
    created bigint NOT NULL,
    secret_hash text NOT NULL UNIQUE,
    last_used bigint,
    last_address text,
    seq bigserial
);
CREATE TABLE IF NOT EXISTS piper_pairings (code_hash text PRIMARY KEY, expires bigint NOT NULL);
ALTER TABLE piper_devices ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'owner';
UPDATE piper_devices SET scope = 'share' WHERE kind = 'token' AND scope <> 'share';
ALTER TABLE piper_pairings ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'owner';
CREATE TABLE IF NOT EXISTS piper_secrets (name text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS piper_shares (
    seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, followed boolean NOT NULL, record text NOT NULL
);
CREATE INDEX IF NOT EXISTS piper_shares_followed ON piper_shares (seq) WHERE followed;
CREATE TABLE IF NOT EXISTS piper_share_keys (
    key text NOT NULL, device text NOT NULL, fingerprint text NOT NULL, records text, created bigint NOT NULL,
    PRIMARY KEY (key, device)
);
ALTER TABLE piper_share_keys ADD COLUMN IF NOT EXISTS owner text, ADD COLUMN IF NOT EXISTS lease bigint,
    ADD COLUMN IF NOT EXISTS done text;
CREATE INDEX IF NOT EXISTS piper_share_keys_owner ON piper_share_keys (owner) WHERE owner IS NOT NULL;
