-- Lo que comparten los procesos del servidor local (node:cluster, ADR 0010): los envíos ya
-- atendidos (protección contra el doble envío de un formulario), los inicios de sesión fallidos y
-- los contadores de express-rate-limit.
-- Solo el propietario (el servidor) los toca; en Supabase no existen (allí sirve un proceso).
create table if not exists auth.local_submissions (
  key text primary key,            -- usuario + el token _envio del formulario
  status smallint,                 -- nulo mientras el primer envío se está atendiendo
  location text,
  set_cookie text[],
  created_at timestamptz not null default now()
);
create index if not exists local_submissions_created_at_idx on auth.local_submissions (created_at);

create table if not exists auth.local_sign_in_failures (
  key text not null,               -- 'cuenta:<correo>' o 'ip:<dirección>'
  at timestamptz not null default now()
);
create index if not exists local_sign_in_failures_key_at_idx on auth.local_sign_in_failures (key, at);

create table if not exists auth.local_rate_limits (
  key text primary key,            -- límite + dirección
  hits integer not null,
  reset_at timestamptz not null
);

revoke all on auth.local_submissions, auth.local_sign_in_failures, auth.local_rate_limits from public, anon, authenticated;
grant all on auth.local_submissions, auth.local_sign_in_failures, auth.local_rate_limits to service_role;
