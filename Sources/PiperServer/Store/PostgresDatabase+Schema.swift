import Foundation
import PiperCore

/// The PostgreSQL schema's history, oldest first (`PostgresDatabase.migrate` applies it, and the
/// version table counts the steps a database has). Add new steps at the end; never edit one
/// that has shipped.
///
/// Steps 1–6 are the schema as the stores created it before it had a history, written so they
/// adopt a database made then in place: every table, index and column "if not exists" (such a
/// database may hold all of them, or only those of an older build), then the data changes that
/// setup made on each start (scopes, reserved device names), which are idempotent.
extension PostgresDatabase {
    static let migrations: [PostgresMigration] = [
        .sql("saves", [
            """
            CREATE TABLE IF NOT EXISTS piper_saves (
                id uuid PRIMARY KEY,
                title text NOT NULL,
                content text NOT NULL,
                created_at bigint NOT NULL,
                expires_at bigint NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS piper_saves_expires_at ON piper_saves (expires_at)",
            // Where the article came from (all optional; older rows read back as nil).
            "ALTER TABLE piper_saves " + ArticleMetadata.columnNames.map { "ADD COLUMN IF NOT EXISTS \($0) text" }.joined(separator: ", "),
        ]),
        // The token buckets every server on the database spends from (`PostgresRateLimits`).
        .sql("rate limits", [
            """
            CREATE TABLE IF NOT EXISTS piper_rate_limits (
                bucket text PRIMARY KEY,
                tokens double precision NOT NULL,
                updated double precision NOT NULL,
                allowed boolean NOT NULL
            )
            """,
        ]),
        // Who may share (`PostgresCredentials`): devices by their secret's hash, pending pairings.
        .sql("devices and pairings", [
            """
            CREATE TABLE IF NOT EXISTS piper_devices (
                id text PRIMARY KEY,
                name text NOT NULL UNIQUE,
                kind text NOT NULL,
                created bigint NOT NULL,
                secret_hash text NOT NULL UNIQUE,
                last_used bigint,
                last_address text,
                seq bigserial
            )
            """,
            "CREATE TABLE IF NOT EXISTS piper_pairings (code_hash text PRIMARY KEY, expires bigint NOT NULL)",
        ]),
        // What each device and pending pairing may do (`DeviceScope`), as SQLite's
        // `SQLiteCredentials.scopesMigration`: tokens share-only, reserved names renamed.
        PostgresMigration("device scopes", addScopes),
        // Server secrets (the share token, the feed's secret).
        .sql("secrets", ["CREATE TABLE IF NOT EXISTS piper_secrets (name text PRIMARY KEY, value text NOT NULL)"]),
        // The recent shares and their idempotency keys; a key's claim belongs to a living run
        // (`SQLiteCredentials.shareLeasesSchema`): its owner, lease and finished items.
        .sql("share ledger", [
            """
            CREATE TABLE IF NOT EXISTS piper_shares (
                seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, followed boolean NOT NULL, record text NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS piper_shares_followed ON piper_shares (seq) WHERE followed",
            """
            CREATE TABLE IF NOT EXISTS piper_share_keys (
                key text NOT NULL, device text NOT NULL, fingerprint text NOT NULL, records text, created bigint NOT NULL,
                PRIMARY KEY (key, device)
            )
            """,
            """
            ALTER TABLE piper_share_keys ADD COLUMN IF NOT EXISTS owner text, ADD COLUMN IF NOT EXISTS lease bigint,
                ADD COLUMN IF NOT EXISTS done text
            """,
            "CREATE INDEX IF NOT EXISTS piper_share_keys_owner ON piper_share_keys (owner) WHERE owner IS NOT NULL",
        ]),
        // Followed feeds and the episodes each has met (`PostgresFollows`), shared by every server:
        // a check's claim is its lease (`lease_until`, on the database's clock, and its owner).
        .sql("follows", [
            """
            CREATE TABLE IF NOT EXISTS piper_follows (
                id text PRIMARY KEY, url text NOT NULL UNIQUE, title text NOT NULL, folder text NOT NULL, keep bigint,
                etag text, last_modified text, created double precision NOT NULL, last_check double precision, last_result text,
                next_check double precision NOT NULL, failures bigint NOT NULL DEFAULT 0, feed_interval double precision, stopped text,
                lease_until double precision, lease_owner text, seq bigserial
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS piper_follow_episodes (
                follow_id text NOT NULL REFERENCES piper_follows(id) ON DELETE CASCADE, key text NOT NULL, url text NOT NULL,
                title text, published double precision, download_id text, prefix text, seen double precision NOT NULL,
                removed double precision, PRIMARY KEY (follow_id, key)
            )
            """,
            "CREATE INDEX IF NOT EXISTS piper_follow_episodes_download ON piper_follow_episodes (download_id) WHERE download_id IS NOT NULL",
        ]),
        // The library's catalog (`PostgresCatalog`), as `library.sqlite`'s tables: the items of the
        // one library folder every server mounts, its folders' members, the refused files.
        .sql("library catalog", [
            """
            CREATE TABLE piper_library_items (
                id bigserial PRIMARY KEY,
                path text NOT NULL UNIQUE,
                title text NOT NULL,
                author text,
                album text,
                duration double precision,
                chapters text NOT NULL DEFAULT '[]',
                format text NOT NULL,
                size bigint NOT NULL,
                sha256 text NOT NULL UNIQUE,
                source_url text,
                original_name text NOT NULL,
                added_at text NOT NULL,
                archive_sha256 text,
                state text NOT NULL DEFAULT 'placing' CHECK (state IN ('placing', 'placed'))
            )
            """,
            "CREATE TABLE piper_library_members (seq bigserial, path text PRIMARY KEY, sha256 text NOT NULL, added_at text NOT NULL)",
            "CREATE INDEX piper_library_members_sha256 ON piper_library_members (sha256, seq)",
            """
            CREATE TABLE piper_library_rejections (
                id bigserial PRIMARY KEY,
                file_name text NOT NULL,
                reason text NOT NULL,
                sha256 text,
                source_url text,
                moved_to text,
                rejected_at text NOT NULL
            )
            """,
        ]),
    ]

    /// Step 4: the scope columns, tokens share-only (every token is), reserved names renamed.
    private static func addScopes(_ conn: PostgresConnection) throws {
        try conn.execute("ALTER TABLE piper_devices ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'owner'")
        try conn.execute("UPDATE piper_devices SET scope = 'share' WHERE kind = 'token' AND scope <> 'share'")
        try conn.execute("ALTER TABLE piper_pairings ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'owner'")
        let rows = try conn.execute("SELECT id, name FROM piper_devices ORDER BY created, seq").rows
        let names = try rows.map { (id: try $0.text("id"), name: try $0.text("name")) }
        for renamed in DeviceNames.renames(of: names) {
            try conn.execute("UPDATE piper_devices SET name = $1 WHERE id = $2", [renamed.name, renamed.id])
        }
    }
}
