-- Oficina: la parte de Supabase Storage que usan las migraciones (los justificantes).
-- (Número 0004: el 0003 lo registró la cadena anterior a la versión base, y una base de datos así
-- debe rechazarse, no darlo por aplicado; ADR 0016.)
--
-- Se aplica SOLO en PostgreSQL normal, como 0001: en Supabase el esquema storage ya existe (y es
-- de Supabase). Aquí no guarda archivos (el backend integrado los guarda en DATA_DIR): da a la
-- migración de justificantes las tablas y funciones sobre las que crea el bucket y sus
-- políticas, con las mismas columnas y definiciones que Supabase, así que las políticas se
-- crean, y se prueban, igual en las dos bases de datos.

create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  public boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  metadata jsonb,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  unique (bucket_id, name)
);
alter table storage.objects enable row level security;
alter table storage.buckets enable row level security;
grant select, insert, update, delete on storage.objects to authenticated, service_role;
grant select on storage.buckets to authenticated, service_role;

-- Las de Supabase: 'a/b/c' → {a,b} y 'c'.
create or replace function storage.foldername(name text) returns text[]
language sql immutable
as $$ select (string_to_array(name, '/'))[:cardinality(string_to_array(name, '/')) - 1] $$;

create or replace function storage.filename(name text) returns text
language sql immutable
as $$ select (string_to_array(name, '/'))[cardinality(string_to_array(name, '/'))] $$;
