extension GoTrueAuthSchema {
  /// Row security on the tables where GoTrue enables it (none has a policy: only their owner,
  /// and roles that bypass row security, see rows), and, as GoTrue grants it, reading them to
  /// the role `postgres` where that role exists.
  static var rowSecurity: String {
    let tables = [
      "schema_migrations", "instances", "users", "audit_log_entries", "saml_relay_states",
      "refresh_tokens", "mfa_factors", "sessions", "sso_providers", "sso_domains",
      "mfa_challenges", "mfa_amr_claims", "saml_providers", "flow_state", "identities",
      "one_time_tokens",
    ]
    let enable = tables.map { "alter table auth.\($0) enable row level security;" }
    let grants = tables.map {
      "    grant select on auth.\($0) to postgres with grant option;"
    }
    let granting = [
      "do $$ begin", "  if exists (select from pg_roles where rolname = 'postgres') then",
    ]
    return (enable + granting + grants + ["  end if;", "end $$;"]).joined(separator: "\n")
  }

  /// Supabase's API roles, made only when missing (as Supabase's base schema makes them:
  /// without login, `service_role` bypassing row security), and leave to use schema `auth`,
  /// so that apps' policies can call `auth.uid()` as them; and, as Supabase's base schema
  /// grants them, every table, function and sequence made in `public` from now on. Another database of the cluster may
  /// be making them at the same moment: a role that appears meanwhile is taken as it is.
  static let apiRoles = """
    do $$
    declare
      wanted text[][] := array[
        ['anon', 'nologin'], ['authenticated', 'nologin'], ['service_role', 'nologin bypassrls']];
      entry text[];
    begin
      foreach entry slice 1 in array wanted loop
        if not exists (select from pg_roles where rolname = entry[1]) then
          begin
            execute format('create role %I %s', entry[1], entry[2]);
          exception
            when duplicate_object or unique_violation then null;
            when insufficient_privilege then
              raise exception 'authflow needs the role % for apps'' policies and % may not \
    create it; as a superuser, run: create role % %', entry[1], current_user, entry[1], entry[2]
                using errcode = 'insufficient_privilege';
          end;
        end if;
      end loop;
    end $$;
    grant usage on schema auth to anon, authenticated, service_role;
    grant usage on schema public to anon, authenticated, service_role;
    alter default privileges in schema public
      grant all on tables to anon, authenticated, service_role;
    alter default privileges in schema public
      grant all on functions to anon, authenticated, service_role;
    alter default privileges in schema public
      grant all on sequences to anon, authenticated, service_role;
    """
}
