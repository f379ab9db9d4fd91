-- Oficina: lo que un proyecto Supabase ya trae y un PostgreSQL normal no.
--
-- Se aplica SOLO en PostgreSQL normal (Postgres embebido o DATABASE_URL), antes de
-- supabase/migrations. En Supabase no se aplica nunca: allí ya existen el esquema auth, los
-- roles anon / authenticated / service_role, auth.uid() y el esquema extensions.
-- Todo es idempotente (los roles son del clúster y se comparten entre bases de datos).

-- Roles de la API (como en Supabase: sin login; el servidor hace `set role` con ellos).
do $$
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- auth.uid(), auth.role(), auth.email(), auth.jwt(): lo que dan en Supabase (los claims de
-- request.jwt.claims, con la variable heredada request.jwt.claim.* como respaldo).
create or replace function auth.claim(p_nombre text) returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.' || p_nombre, true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> p_nombre
  )
$$;
create or replace function auth.uid() returns uuid language sql stable as $$ select auth.claim('sub')::uuid $$;
create or replace function auth.role() returns text language sql stable as $$ select auth.claim('role') $$;
create or replace function auth.email() returns text language sql stable as $$ select auth.claim('email') $$;
create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant execute on function auth.claim(text), auth.uid(), auth.role(), auth.email(), auth.jwt()
  to anon, authenticated, service_role;

-- Cuentas: subconjunto de auth.users de Supabase, con sus nombres de columna reales.
create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  encrypted_password text,
  email_confirmed_at timestamptz,
  raw_user_meta_data jsonb default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_sign_in_at timestamptz
);

-- El correo se guarda siempre en minúsculas (GoTrue hace lo mismo).
create or replace function auth.normalizar_usuario() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  if tg_op = 'UPDATE' then
    new.updated_at := now();
  end if;
  return new;
end
$$;

drop trigger if exists normalizar_usuario on auth.users;
create trigger normalizar_usuario
  before insert or update on auth.users
  for each row execute function auth.normalizar_usuario();

-- Sesiones del backend de cuentas local (se guarda solo el hash del token).
create table if not exists auth.local_sessions (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index if not exists local_sessions_user_id_idx on auth.local_sessions (user_id);

-- Tokens de un solo uso del backend local, para todos sus fines (docs/producto.md «Cuentas»):
--   confirm     alta pendiente: lleva SUS credenciales (correo, hash de la contraseña y nombre),
--               que solo pasan a auth.users al confirmar; así un alta sin confirmar no crea cuenta
--               ni perfil (ni «primera cuenta» ni nombre) y volver a darse de alta no pisa nada;
--   recuperar   restablecer la contraseña (1 h);
--   invitacion  elegir la contraseña de una cuenta creada por un administrador (7 días).
create table if not exists auth.local_tokens (
  token_hash text primary key,
  user_id uuid references auth.users (id) on delete cascade,
  kind text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  email text,
  password_hash text,
  nombre text,
  constraint local_tokens_kind_check check (kind in ('confirm', 'recuperar', 'invitacion')),
  constraint local_tokens_destino_check
    check (user_id is not null or (kind = 'confirm' and email is not null and password_hash is not null))
);
create index if not exists local_tokens_user_id_idx on auth.local_tokens (user_id);
create index if not exists local_tokens_email_idx on auth.local_tokens (lower(email)) where email is not null;

-- Nada de auth.* para los roles de la API: solo el propietario (el servidor) toca las cuentas.
revoke all on all tables in schema auth from public, anon, authenticated;
revoke execute on function auth.normalizar_usuario() from public, anon, authenticated;
grant all on all tables in schema auth to service_role;
