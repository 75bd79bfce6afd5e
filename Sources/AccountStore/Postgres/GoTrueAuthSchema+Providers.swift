extension GoTrueAuthSchema {
  /// Sign-in flows in progress (PKCE, OAuth, SSO).
  static let flows = """
    create table auth.flow_state (
      id uuid primary key,
      user_id uuid null,
      auth_code text null,
      code_challenge_method auth.code_challenge_method null,
      code_challenge text null,
      provider_type text not null,
      provider_access_token text null,
      provider_refresh_token text null,
      created_at timestamptz null,
      updated_at timestamptz null,
      authentication_method text not null,
      auth_code_issued_at timestamptz null,
      invite_token text null,
      referrer text null,
      oauth_client_state_id uuid null,
      linking_target_id uuid null,
      email_optional boolean not null default false
    );
    create index idx_auth_code on auth.flow_state (auth_code);
    create index idx_user_id_auth_method on auth.flow_state (user_id, authentication_method);
    create index flow_state_created_at_idx on auth.flow_state (created_at desc);
    comment on table auth.flow_state is 'Stores metadata for all OAuth/SSO login flows';
    """

  /// SSO providers, their email domains and SAML connections, and SAML's relay states.
  static let providers = """
    create table auth.sso_providers (
      id uuid not null,
      resource_id text null,
      created_at timestamptz null,
      updated_at timestamptz null,
      disabled boolean null,
      primary key (id),
      constraint "resource_id not empty" check (resource_id = null or char_length(resource_id) > 0)
    );
    create unique index sso_providers_resource_id_idx on auth.sso_providers (lower(resource_id));
    create index sso_providers_resource_id_pattern_idx
      on auth.sso_providers (resource_id text_pattern_ops);
    comment on table auth.sso_providers is 'Auth: Manages SSO identity provider information; see \
    saml_providers for SAML.';
    comment on column auth.sso_providers.resource_id is 'Auth: Uniquely identifies a SSO provider \
    according to a user-chosen resource ID (case insensitive), useful in infrastructure as code.';

    create table auth.sso_domains (
      id uuid not null,
      sso_provider_id uuid not null,
      domain text not null,
      created_at timestamptz null,
      updated_at timestamptz null,
      primary key (id),
      foreign key (sso_provider_id) references auth.sso_providers (id) on delete cascade,
      constraint "domain not empty" check (char_length(domain) > 0)
    );
    create index sso_domains_sso_provider_id_idx on auth.sso_domains (sso_provider_id);
    create unique index sso_domains_domain_idx on auth.sso_domains (lower(domain));
    comment on table auth.sso_domains is 'Auth: Manages SSO email address domain mapping to an SSO \
    Identity Provider.';

    create table auth.saml_providers (
      id uuid not null,
      sso_provider_id uuid not null,
      entity_id text not null unique,
      metadata_xml text not null,
      metadata_url text null,
      attribute_mapping jsonb null,
      created_at timestamptz null,
      updated_at timestamptz null,
      name_id_format text null,
      primary key (id),
      foreign key (sso_provider_id) references auth.sso_providers (id) on delete cascade,
      constraint "metadata_xml not empty" check (char_length(metadata_xml) > 0),
      constraint "metadata_url not empty" check (metadata_url = null or char_length(metadata_url) > 0),
      constraint "entity_id not empty" check (char_length(entity_id) > 0)
    );
    create index saml_providers_sso_provider_id_idx on auth.saml_providers (sso_provider_id);
    comment on table auth.saml_providers is 'Auth: Manages SAML Identity Provider connections.';

    create table auth.saml_relay_states (
      id uuid not null,
      sso_provider_id uuid not null,
      request_id text not null,
      for_email text null,
      redirect_to text null,
      created_at timestamptz null,
      updated_at timestamptz null,
      flow_state_id uuid references auth.flow_state (id) on delete cascade default null,
      primary key (id),
      foreign key (sso_provider_id) references auth.sso_providers (id) on delete cascade,
      constraint "request_id not empty" check (char_length(request_id) > 0)
    );
    create index saml_relay_states_sso_provider_id_idx on auth.saml_relay_states (sso_provider_id);
    create index saml_relay_states_for_email_idx on auth.saml_relay_states (for_email);
    create index saml_relay_states_created_at_idx on auth.saml_relay_states (created_at desc);
    comment on table auth.saml_relay_states is 'Auth: Contains SAML Relay State information for \
    each Service Provider initiated login.';
    """
}
