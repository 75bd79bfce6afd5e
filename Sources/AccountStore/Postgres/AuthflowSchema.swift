/// What authflow keeps beyond GoTrue's columns (Firebase's fields, keyed code hashes, rate-limit
/// buckets, its own secrets), in a schema of its own so that GoTrue's `auth` stays exactly
/// GoTrue's: for now a table of settings and the version of this schema.
enum AuthflowSchema {
  /// The version this authflow makes and reads.
  static let version = 1

  /// Made once; later versions add to it in steps.
  static let creation = """
    create schema if not exists authflow;
    create table if not exists authflow.meta (
      key text primary key,
      value bytea not null
    );
    comment on table authflow.meta is 'authflow: settings and secrets of the server, by name';
    create table if not exists authflow.schema_version (
      version integer primary key,
      applied_at timestamptz not null default now()
    );
    comment on table authflow.schema_version is 'authflow: the versions of this schema applied';
    insert into authflow.schema_version (version) values (\(version)) on conflict do nothing;
    """

  /// The key of `authflow.meta` that says authflow made the `auth` schema, and from which
  /// GoTrue it took its shape.
  static let authMadeByKey = "auth.made_by"
}
